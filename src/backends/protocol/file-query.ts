import { compileGlob } from "./glob.js";
import { baseName, relativeTo } from "./paths.js";

/**
 * The one contract of `glob` patterns and grep's `glob` filter, for every backend: a pattern
 * without "/" matches the file name at any depth; a pattern with "/" matches the path
 * relative to the search directory; a leading "/" anchors it at the root. Dot-files match
 * only a segment that itself starts with ".".
 */
export function fileMatchesGlob(pattern: string, filePath: string, searchDir: string): boolean {
  if (pattern.startsWith("/")) return compileGlob(pattern.slice(1)).test(filePath.slice(1));
  if (!pattern.includes("/")) {
    if (pattern === "**") return compileGlob("**").test(relativeTo(filePath, searchDir));
    return compileGlob(pattern).test(baseName(filePath));
  }
  return compileGlob(pattern).test(relativeTo(filePath, searchDir));
}

/** Default cap on matching lines for grep. */
export const DEFAULT_GREP_MAX_COUNT = 1000;
/** Default cap on files returned by glob. */
export const DEFAULT_GLOB_MAX_RESULTS = 1000;
