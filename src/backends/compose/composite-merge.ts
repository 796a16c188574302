import type {
  BackendError,
  FileInfo,
  GlobResult,
  GrepMatch,
  GrepResult,
} from "../protocol/protocol.js";
import type { Resolved, Route, RouteTable } from "./composite-routes.js";

/**
 * How `CompositeBackend` merges what several backends answer: a backend that throws counts as
 * one that failed, failures are summarised next to the entries that did arrive, entries are
 * mapped back to the caller's paths, deduplicated and sorted, and inner paths in error
 * messages are replaced by the path the caller used.
 */

/** One backend that failed during a merged `ls`, `glob` or `grep`; "/" is the default. */
export interface PartialError {
  prefix: string;
  error: BackendError;
}

/**
 * What a merged operation adds to its protocol result. When some backends fail, the result
 * keeps the others' entries, `error` summarises every failure ("backend for /memories/ failed:
 * ...", code of the first), and `partialErrors` lists them one by one. A caller that sees
 * `error` together with `files`/`matches` should show both: they are valid but incomplete.
 */
export interface PartialErrors {
  partialErrors?: PartialError[];
}

/** A canonical path the caller used and where the route table sends it. */
export interface Target {
  path: string;
  resolved: Resolved;
}

/** One backend's answer to a merged search, with the route it came from (none: default). */
export interface RoutedResult<R> {
  route: Route | undefined;
  result: R;
}

/** A backend that throws is reported like one that returns an error, so the others still count. */
export async function settle<R extends { error?: BackendError }>(
  call: () => Promise<R>,
): Promise<R> {
  try {
    return await call();
  } catch (cause) {
    return { error: { code: "io", message: `threw: ${messageOf(cause)}` } } as R;
  }
}

/** The message of a thrown value. */
export function messageOf(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

/** Adds the summary `error` and the `partialErrors` of failed backends to merged entries. */
export function withFailures<F>(files: F | undefined, failures: PartialError[]) {
  const message = failures
    .map(
      (f) =>
        `${f.prefix === "/" ? "default backend" : `backend for ${f.prefix}`} failed: ${f.error.message}`,
    )
    .join("; ");
  const error: BackendError = { code: failures[0]!.error.code, message };
  return files === undefined
    ? { error, partialErrors: failures }
    : { files, error, partialErrors: failures };
}

/** Routed backends speak of their inner path; say the path the caller used instead. */
export function mapError(error: BackendError, target: Target): BackendError {
  const { route, inner } = target.resolved;
  if (!route || inner === "/" || !error.message.includes(inner)) return error;
  return { ...error, message: error.message.split(inner).join(target.path) };
}

/** `mapError` applied to a result's `error`, if any. */
export function mapErrorOf<R extends { error?: BackendError }>(result: R, target: Target): R {
  return result.error ? { ...result, error: mapError(result.error, target) } : result;
}

/** Entries sorted by path, keeping the first of each path. */
export function sortUnique(files: FileInfo[]): FileInfo[] {
  const byPath = new Map<string, FileInfo>();
  for (const f of files) if (!byPath.has(f.path)) byPath.set(f.path, f);
  return [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * One glob result from the answers of every backend searched: paths mapped back and kept only
 * where their route owns them, sorted, cut at `max`, failures summarised.
 */
export function mergeGlob(
  table: RouteTable,
  parts: RoutedResult<GlobResult>[],
  max: number,
): GlobResult & PartialErrors {
  const failures: PartialError[] = [];
  let truncated = false;
  const files: FileInfo[] = [];
  for (const { route, result } of parts) {
    if (result.error) failures.push({ prefix: route?.prefix ?? "/", error: result.error });
    truncated ||= result.truncated === true;
    for (const f of result.files ?? []) {
      const outer = table.outer(route, f.path);
      if (table.owns(route, outer)) files.push({ ...f, path: outer });
    }
  }
  const merged = sortUnique(files);
  const result: GlobResult = { files: merged.slice(0, max) };
  if (truncated || merged.length > max) result.truncated = true;
  return failures.length > 0 ? { ...result, ...withFailures(undefined, failures) } : result;
}

/**
 * One grep result from the answers of every backend searched: paths mapped back and kept only
 * where their route owns them, each line once, in path then line order, cut at `max`,
 * failures summarised.
 */
export function mergeGrep(
  table: RouteTable,
  parts: RoutedResult<GrepResult>[],
  max: number,
): GrepResult & PartialErrors {
  const failures: PartialError[] = [];
  let truncated = false;
  const seen = new Set<string>();
  const matches: GrepMatch[] = [];
  for (const { route, result } of parts) {
    if (result.error) failures.push({ prefix: route?.prefix ?? "/", error: result.error });
    truncated ||= result.truncated === true;
    for (const m of result.matches ?? []) {
      const outer = table.outer(route, m.path);
      const key = `${outer}\0${m.line}`;
      if (seen.has(key) || !table.owns(route, outer)) continue;
      seen.add(key);
      matches.push({ ...m, path: outer });
    }
  }
  matches.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
  const result: GrepResult = { matches: matches.slice(0, max) };
  if (truncated || matches.length > max) result.truncated = true;
  return failures.length > 0 ? { ...result, ...withFailures(undefined, failures) } : result;
}
