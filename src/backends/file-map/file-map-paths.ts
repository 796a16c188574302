import { checkVirtualPath } from "../protocol/paths.js";
import type { BackendError, FileData } from "../protocol/protocol.js";

/** Read access to a set of files keyed by canonical virtual path ("/a/b.md"). */
export interface FileMapView {
  get(path: string): FileData | undefined;
  entries(): Iterable<[string, FileData]>;
  /** The paths alone, when the view can list them without building entries. */
  paths?(): Iterable<string>;
}

/**
 * Where a path stands in a `FileMapView`: canonical or refused, a directory (some file lies
 * under it), blocked by a file in the way, or missing; with the protocol error for each.
 */

/** The `invalid_path` error for a refused input path. */
export function invalidPath(input: string, reason: string): BackendError {
  return { code: "invalid_path", message: `invalid path ${JSON.stringify(input)}: ${reason}` };
}

/** The canonical path, or the protocol error for a refused one. */
export function canonical(input: string): { path: string } | { error: BackendError } {
  const checked = checkVirtualPath(input);
  return checked.ok ? { path: checked.path } : { error: invalidPath(input, checked.reason) };
}

/** The prefix every path under `dir` starts with ("/" or "/a/"). */
export function dirPrefix(dir: string): string {
  return dir === "/" ? "/" : `${dir}/`;
}

function hasFilesUnder(files: FileMapView, dir: string): boolean {
  const prefix = dirPrefix(dir);
  if (files.paths) {
    for (const path of files.paths()) if (path.startsWith(prefix)) return true;
    return false;
  }
  for (const [path] of files.entries()) if (path.startsWith(prefix)) return true;
  return false;
}

// A write to /a/b/c is refused when /a or /a/b is a file.
function fileAncestor(files: FileMapView, path: string): string | undefined {
  for (let at = path.indexOf("/", 1); at !== -1; at = path.indexOf("/", at + 1)) {
    const ancestor = path.slice(0, at);
    if (files.get(ancestor)) return ancestor;
  }
  return undefined;
}

/** Why `path` cannot hold a file, or undefined when it can. */
export function writeTargetError(files: FileMapView, path: string): BackendError | undefined {
  if (path === "/") return { code: "is_directory", message: "/ is a directory" };
  const ancestor = fileAncestor(files, path);
  if (ancestor)
    return { code: "not_a_directory", message: `${ancestor} is a file, not a directory` };
  if (!files.get(path) && hasFilesUnder(files, path)) {
    return { code: "is_directory", message: `${path} is a directory` };
  }
  return undefined;
}

/** The error for a path that holds no file: a directory, or nothing at all. */
export function missingFileError(files: FileMapView, path: string): BackendError {
  if (path === "/" || hasFilesUnder(files, path)) {
    return { code: "is_directory", message: `${path} is a directory` };
  }
  return { code: "not_found", message: `file not found: ${path}` };
}
