import type { PathPolicy } from "../protocol/path-policy.js";
import { FsFailure, type PathJudge } from "./safe-fs.js";

/**
 * How `FilesystemBackend` applies the path policy in force: to the canonical path a symlink
 * really leads to, and to every entry of a listing or walk before anything is capped.
 */

/** A judge refusing through `policy`: what a symlink really reaches is judged like the path asked for. */
export function judgeOf(policy: PathPolicy | undefined): PathJudge | undefined {
  if (!policy) return undefined;
  return (operation, canonical) => {
    const refused = policy.refusal(operation, canonical);
    if (refused !== undefined) throw new FsFailure("permission_denied", refused);
  };
}

/** True when a listing may show an entry: both the path shown and the one it really is. */
export function shows(
  policy: PathPolicy | undefined,
  shown: string,
  canonical: string,
  isDir: boolean,
): boolean {
  if (!policy) return true;
  const as = (path: string) => (isDir && path !== "/" ? `${path}/` : path);
  return policy.shows(as(shown)) && (canonical === shown || policy.shows(as(canonical)));
}
