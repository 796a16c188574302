import {
  DEFAULT_GLOB_MAX_RESULTS,
  DEFAULT_GREP_MAX_COUNT,
  fileMatchesGlob,
} from "../protocol/file-query.js";
import { activePathPolicy, type PathPolicy } from "../protocol/path-policy.js";
import type {
  DeleteResult,
  EditResult,
  FileData,
  FileDownloadResult,
  FileInfo,
  FileUpload,
  FileUploadResult,
  GlobResult,
  GrepMatch,
  GrepResult,
  LsResult,
  ReadResult,
  WriteResult,
} from "../protocol/protocol.js";
import { editResultOf, grepText, pageText, replaceInText } from "../protocol/text-content.js";
import { createFileData, fileDataBytes, fileDataSize } from "./file-data.js";
import {
  canonical,
  dirPrefix,
  type FileMapView,
  invalidPath,
  missingFileError,
  writeTargetError,
} from "./file-map-paths.js";

/**
 * The file operations of every backend that keeps its files as `FileData` keyed by virtual
 * path (the in-memory backend, the `files` state channel, stores). They are pure: they read a
 * `FileMapView`, never mutate it, and return the protocol result plus the `changes` to apply
 * (`null` deletes a path), so a map backend applies them in place and a state backend sends
 * them as a state update.
 *
 * Read-only operations (`lsFiles`, `readFile`, `globFiles`, `grepFiles`, `downloadFileBytes`)
 * return the protocol result directly; mutating ones return a `FileOpOutcome`.
 */

export { createFileData, fileDataBytes, fileDataSize } from "./file-data.js";

export type { FileMapView } from "./file-map-paths.js";

/** Files to set (`FileData`) or delete (`null`), keyed by canonical virtual path. */
export type FileChanges = Record<string, FileData | null>;

/** A mutating operation's protocol result and the changes that realise it. */
export interface FileOpOutcome<R> {
  result: R;
  changes?: FileChanges;
}

/**
 * Wraps a plain record (a state channel's value) as a `FileMapView`. A `Map` already is one.
 *
 * @example
 * const view = fileMapOfRecord(state.files ?? {});
 * const listing = lsFiles(view, { path: "/" });
 */
export function fileMapOfRecord(record: Readonly<Record<string, FileData>>): FileMapView {
  return {
    get: (path) => (Object.hasOwn(record, path) ? record[path] : undefined),
    entries: () => Object.entries(record),
    // A write checks the paths for a directory of its name: no entry pairs for that.
    paths: () => Object.keys(record),
  };
}

/**
 * Applies `changes` to a `Map` in place (the in-memory backend's half of the contract).
 *
 * @example
 * const { result, changes } = writeFile(map, { path: "/a.md", content: "hi" });
 * if (changes) applyFileChanges(map, changes);
 */
export function applyFileChanges(map: Map<string, FileData>, changes: FileChanges): void {
  for (const [path, data] of Object.entries(changes)) {
    if (data === null) map.delete(path);
    else map.set(path, data);
  }
}

/**
 * Lists the direct children of a directory, sorted by path; directories end with "/" and
 * carry the latest `modifiedAt` below them. "/" always exists; another directory exists when
 * a file lies under it. Under a path policy, files it hides count for nothing: a directory
 * holding only hidden files does not exist (see `activePathPolicy`), and so for glob and grep.
 */
export function lsFiles(files: FileMapView, args: { path: string }): LsResult {
  const target = canonical(args.path);
  if ("error" in target) return { error: target.error };
  const dir = target.path;
  if (dir !== "/" && files.get(dir)) {
    return { error: { code: "not_a_directory", message: `${dir} is a file, not a directory` } };
  }
  const prefix = dirPrefix(dir);
  const children = new Map<string, FileInfo>();
  const hidden = hiddenBy(activePathPolicy());
  for (const [path, data] of files.entries()) {
    if (!path.startsWith(prefix) || path.length === prefix.length) continue;
    if (hidden(path)) continue;
    const slash = path.indexOf("/", prefix.length);
    if (slash === -1) {
      children.set(path, {
        path,
        isDir: false,
        size: fileDataSize(data),
        modifiedAt: data.modifiedAt,
      });
      continue;
    }
    const childDir = path.slice(0, slash + 1);
    if (hidden(childDir)) continue;
    const seen = children.get(childDir);
    if (!seen) children.set(childDir, { path: childDir, isDir: true, modifiedAt: data.modifiedAt });
    else if (seen.modifiedAt! < data.modifiedAt) seen.modifiedAt = data.modifiedAt;
  }
  if (children.size === 0 && dir !== "/") {
    return { error: { code: "not_found", message: `directory not found: ${dir}` } };
  }
  return { files: [...children.values()].sort(byPath) };
}

/** Reads one page of a text file, or the bytes of a base64 file (`kind: "binary"`). */
export function readFile(
  files: FileMapView,
  args: { path: string; offset?: number; limit?: number },
): ReadResult {
  const target = canonical(args.path);
  if ("error" in target) return { error: target.error };
  const data = files.get(target.path);
  if (!data) return { error: missingFileError(files, target.path) };
  if (data.encoding === "base64") {
    const bytes = fileDataBytes(data);
    return { kind: "binary", bytes, size: bytes.byteLength };
  }
  return pageText(data.content, { offset: args.offset, limit: args.limit });
}

/** Creates or overwrites a file; `created` says which. Keeps `createdAt` on overwrite. */
export function writeFile(
  files: FileMapView,
  args: { path: string; content: string | Uint8Array; now?: string },
): FileOpOutcome<WriteResult> {
  const target = canonical(args.path);
  if ("error" in target) return { result: { error: target.error } };
  const path = target.path;
  const refused = writeTargetError(files, path);
  if (refused) return { result: { error: refused } };
  const previous = files.get(path);
  const data = createFileData(path, args.content, args.now ?? new Date().toISOString(), previous);
  return { result: { path, created: !previous }, changes: { [path]: data } };
}

/** Replaces an exact string in a text file (unique unless `replaceAll`). */
export function editFile(
  files: FileMapView,
  args: {
    path: string;
    oldString: string;
    newString: string;
    replaceAll?: boolean;
    now?: string;
  },
): FileOpOutcome<EditResult> {
  const target = canonical(args.path);
  if ("error" in target) return { result: { error: target.error } };
  const path = target.path;
  const data = files.get(path);
  if (!data) return { result: { error: missingFileError(files, path) } };
  if (data.encoding === "base64") {
    return { result: { error: { code: "unsupported", message: `${path} is a binary file` } } };
  }
  const outcome = replaceInText(data.content, args.oldString, args.newString, args.replaceAll);
  const result = editResultOf(path, outcome);
  if ("error" in outcome) return { result };
  const now = args.now ?? new Date().toISOString();
  return { result, changes: { [path]: { ...data, content: outcome.text, modifiedAt: now } } };
}

/**
 * Deletes a file, or a directory and everything under it. "/" is refused (`invalid_path`):
 * wiping every file is never what one tool call means.
 */
export function deleteFiles(
  files: FileMapView,
  args: { path: string },
): FileOpOutcome<DeleteResult> {
  const target = canonical(args.path);
  if ("error" in target) return { result: { error: target.error } };
  const path = target.path;
  if (path === "/") {
    return { result: { error: invalidPath(args.path, "refusing to delete the root directory") } };
  }
  if (files.get(path)) return { result: { deleted: [path] }, changes: { [path]: null } };
  const prefix = `${path}/`;
  const deleted: string[] = [];
  for (const [key] of files.entries()) if (key.startsWith(prefix)) deleted.push(key);
  if (deleted.length === 0) {
    return { result: { error: { code: "not_found", message: `not found: ${path}` } } };
  }
  deleted.sort();
  const changes: FileChanges = {};
  for (const key of deleted) changes[key] = null;
  return { result: { deleted }, changes };
}

/** Files under `path` matching `pattern` (the `fileMatchesGlob` contract), sorted by path. */
export function globFiles(
  files: FileMapView,
  args: { pattern: string; path?: string; maxResults?: number },
): GlobResult {
  const target = canonical(args.path ?? "/");
  if ("error" in target) return { error: target.error };
  const dir = target.path;
  const prefix = dirPrefix(dir);
  const found: FileInfo[] = [];
  const hidden = hiddenBy(activePathPolicy());
  for (const [path, data] of files.entries()) {
    if (!path.startsWith(prefix) || !fileMatchesGlob(args.pattern, path, dir)) continue;
    if (hidden(path)) continue;
    found.push({ path, isDir: false, size: fileDataSize(data), modifiedAt: data.modifiedAt });
  }
  found.sort(byPath);
  const max = capOf(args.maxResults, DEFAULT_GLOB_MAX_RESULTS);
  if (found.length > max) return { files: found.slice(0, max), truncated: true };
  return { files: found };
}

/**
 * Literal search of text files under `path` (a directory or one file), optionally only files
 * matching `glob`. Matches come in path then line order; past `maxCount` the result is
 * `truncated`. Only files that contain the pattern are sorted, so a search over thousands of
 * files costs one `indexOf` each.
 */
export function grepFiles(
  files: FileMapView,
  args: { pattern: string; path?: string; glob?: string; maxCount?: number },
): GrepResult {
  const target = canonical(args.path ?? "/");
  if ("error" in target) return { error: target.error };
  const dir = target.path;
  const { pattern, glob } = args;
  const hits: [string, string][] = [];
  const hidden = hiddenBy(activePathPolicy());
  const single = dir === "/" ? undefined : files.get(dir);
  if (single) {
    if (hidden(dir)) return { matches: [] };
    if (single.encoding === "utf-8" && (!glob || fileMatchesGlob(glob, dir, dir))) {
      if (single.content.includes(pattern)) hits.push([dir, single.content]);
    }
  } else {
    const prefix = dirPrefix(dir);
    for (const [path, data] of files.entries()) {
      if (data.encoding !== "utf-8" || !path.startsWith(prefix)) continue;
      if (!data.content.includes(pattern)) continue;
      if (glob && !fileMatchesGlob(glob, path, dir)) continue;
      if (hidden(path)) continue;
      hits.push([path, data.content]);
    }
    hits.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }
  const max = capOf(args.maxCount, DEFAULT_GREP_MAX_COUNT);
  const matches: GrepMatch[] = [];
  for (const [path, text] of hits) {
    if (!grepText(path, text, pattern, matches, max)) return { matches, truncated: true };
  }
  return { matches };
}

/**
 * Stores each upload's bytes (see `createFileData` for the encoding kept). Each file succeeds
 * or fails on its own; later uploads in the batch see the earlier ones.
 */
export function uploadFileBytes(
  files: FileMapView,
  args: { files: FileUpload[]; now?: string },
): FileOpOutcome<FileUploadResult[]> {
  const now = args.now ?? new Date().toISOString();
  const changes: FileChanges = {};
  const view = overlay(files, changes);
  const result = args.files.map(({ path, content }): FileUploadResult => {
    const written = writeFile(view, { path, content, now });
    if (written.result.error) return { path, error: written.result.error };
    Object.assign(changes, written.changes);
    return { path: written.result.path! };
  });
  return { result, changes };
}

/** The bytes of each path, or a per-path error. */
export function downloadFileBytes(
  files: FileMapView,
  args: { paths: string[] },
): FileDownloadResult[] {
  return args.paths.map((input): FileDownloadResult => {
    const target = canonical(input);
    if ("error" in target) return { path: input, error: target.error };
    const data = files.get(target.path);
    if (!data) return { path: target.path, error: missingFileError(files, target.path) };
    return { path: target.path, content: fileDataBytes(data) };
  });
}

// A view of `files` with pending `changes` applied, for batches.
function overlay(files: FileMapView, changes: FileChanges): FileMapView {
  return {
    get: (path) => (Object.hasOwn(changes, path) ? (changes[path] ?? undefined) : files.get(path)),
    *entries() {
      for (const entry of files.entries()) if (!Object.hasOwn(changes, entry[0])) yield entry;
      for (const [path, data] of Object.entries(changes)) if (data) yield [path, data];
    },
  };
}

// A predicate of what the policy hides; nothing without a policy. One decision per path.
function hiddenBy(policy: PathPolicy | undefined): (path: string) => boolean {
  if (!policy) return () => false;
  const seen = new Map<string, boolean>();
  return (path) => {
    let hide = seen.get(path);
    if (hide === undefined) {
      hide = !policy.shows(path);
      seen.set(path, hide);
    }
    return hide;
  };
}

function capOf(value: number | undefined, fallback: number): number {
  if (value === undefined || Number.isNaN(value)) return fallback;
  return value === Number.POSITIVE_INFINITY ? value : Math.max(0, Math.floor(value));
}

function byPath(a: FileInfo, b: FileInfo): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}
