/**
 * Virtual path rules shared by every backend and tool: absolute POSIX paths, no `..`,
 * no `~`, no NUL, no backslashes, no percent-encoded or look-alike separators.
 */

/** Why a path was refused, or the normalised path. */
export type PathCheck = { ok: true; path: string } | { ok: false; reason: string };

// Characters that render like "/" or "." in some fonts and decoders, and control characters:
// refuse them outright.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const LOOKALIKES = /[\u2215\u2044\u29F8\uFF0F\u3002\uFF0E\u2024\uFE52\u0000-\u001f\u007f]/;

/**
 * Normalises a model-supplied path into a canonical virtual path ("/a/b"), or says why it
 * is refused. Relative paths are taken from "/". Duplicate and trailing slashes and "."
 * segments are removed; ".." is refused, never resolved, so no path can climb out.
 */
export function checkVirtualPath(input: string): PathCheck {
  if (typeof input !== "string" || input.length === 0) {
    return { ok: false, reason: "path is empty" };
  }
  if (input.includes("\0")) return { ok: false, reason: "path contains a NUL byte" };
  if (input.includes("\\")) return { ok: false, reason: "backslashes are not allowed in paths" };
  if (LOOKALIKES.test(input)) {
    return { ok: false, reason: "path contains control or look-alike separator characters" };
  }
  if (/%[0-9a-fA-F]{2}/.test(input)) {
    return { ok: false, reason: "percent-encoded characters are not allowed in paths" };
  }
  if (input.startsWith("~"))
    return { ok: false, reason: "home-directory paths (~) are not allowed" };
  if (/^[a-zA-Z]:/.test(input)) return { ok: false, reason: "drive-letter paths are not allowed" };
  const segments: string[] = [];
  for (const segment of input.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") return { ok: false, reason: "path traversal (..) is not allowed" };
    segments.push(segment);
  }
  return { ok: true, path: `/${segments.join("/")}` };
}

/** True when `path` is `dir` itself or lies under it. Both must be normalised. */
export function isUnder(path: string, dir: string): boolean {
  if (dir === "/") return true;
  return path === dir || path.startsWith(`${dir}/`);
}

/** "/a/b/c.txt" relative to "/a" is "b/c.txt"; relative to "/" is "a/b/c.txt". */
export function relativeTo(path: string, dir: string): string {
  if (dir === "/") return path.slice(1);
  return path === dir ? "" : path.slice(dir.length + 1);
}

/** The last segment of a path. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}
