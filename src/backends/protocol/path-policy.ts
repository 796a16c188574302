import { AsyncLocalStorage } from "node:async_hooks";

/**
 * A path policy lets whoever calls a backend (the file tools' permission guard) judge the
 * path the backend really touches, not only the string the model typed: the canonical,
 * symlink-resolved path of a descriptor on disk, a route's path inside a composite, and every
 * entry a listing, glob or grep walks, before anything is capped or counted. Backends read
 * the policy in force with `activePathPolicy()`; a backend that ignores it is still guarded
 * on the typed path, but can be fooled by links and leaks through caps.
 */

/** What a backend is about to do to a path: `delete` removes the path's whole subtree. */
export type PolicyOperation = "read" | "write" | "delete";

/** The judge a backend consults, in that backend's own virtual paths. */
export interface PathPolicy {
  /** Undefined when `operation` on `path` is allowed; else a one-line reason (no prefix). */
  refusal(operation: PolicyOperation, path: string): string | undefined;
  /** True when a listing, glob or grep may show and count `path` (a file or "dir/"). */
  shows(path: string): boolean;
}

const current = new AsyncLocalStorage<PathPolicy | undefined>();

/**
 * Runs `fn` with `policy` in force for every backend call it makes (undefined: none).
 *
 * @example
 * await withPathPolicy(policy, () => backend.grep("key", { maxCount: 1000 }));
 */
export function withPathPolicy<T>(policy: PathPolicy | undefined, fn: () => T): T {
  return current.run(policy, fn);
}

/** The policy in force for the running backend call, if any. */
export function activePathPolicy(): PathPolicy | undefined {
  return current.getStore();
}

/**
 * The policy as seen by an inner backend whose path `p` is `toOuter(p)` outside, for
 * backends that mount or prefix others (composite routes, prefixed views).
 *
 * @example
 * withPathPolicy(mapPathPolicy(policy, (p) => `/memories${p}`), () => route.read("/a.md"));
 */
export function mapPathPolicy(
  policy: PathPolicy | undefined,
  toOuter: (path: string) => string,
): PathPolicy | undefined {
  if (!policy) return undefined;
  return {
    refusal: (operation, path) => policy.refusal(operation, toOuter(path)),
    shows: (path) => {
      const dir = path.length > 1 && path.endsWith("/");
      const outer = toOuter(dir ? path.slice(0, -1) : path);
      return policy.shows(dir ? `${outer}/` : outer);
    },
  };
}

/**
 * Runs `fn` with the active policy mapped by `toOuter` (see `mapPathPolicy`); runs it as is
 * when no policy is in force.
 */
export function underMappedPolicy<T>(toOuter: (path: string) => string, fn: () => T): T {
  const policy = activePathPolicy();
  if (!policy) return fn();
  return withPathPolicy(mapPathPolicy(policy, toOuter), fn);
}

/** True when the active policy (if any) lets a listing show `path`. */
export function policyShows(path: string): boolean {
  const policy = activePathPolicy();
  return !policy || policy.shows(path);
}
