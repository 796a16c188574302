import type { BackendError } from "../protocol/protocol.js";
import { errnoOf, FsFailure } from "./safe-fs.js";

/** How `FilesystemBackend` reports a refusal or a system error in a result's `error`. */

const ERRNO: Record<string, [BackendError["code"], string]> = {
  ENOENT: ["not_found", "no such file or directory"],
  EISDIR: ["is_directory", "is a directory"],
  ENOTDIR: ["not_a_directory", "a parent of this path is not a directory"],
  EACCES: ["permission_denied", "permission denied by the operating system"],
  EPERM: ["permission_denied", "operation not permitted by the operating system"],
  ELOOP: ["invalid_path", "too many levels of symbolic links"],
  ENAMETOOLONG: ["invalid_path", "file name too long"],
  EEXIST: ["io", "a file is in the way"],
  ENOSPC: ["io", "no space left on the device"],
  EROFS: ["permission_denied", "read-only file system"],
};

/** A thrown failure as a result error; never echoes Node's message: it names the host path, which virtual mode keeps private. */
// Never echoes Node's message: it names the host path, which virtual mode keeps private.
export function failureOf(error: unknown, shown: string): BackendError {
  if (error instanceof FsFailure) return { code: error.code, message: error.message };
  const errno = errnoOf(error);
  const known = errno ? ERRNO[errno] : undefined;
  if (known) return { code: known[0], message: `${shown}: ${known[1]}` };
  return { code: "io", message: `${shown}: ${errno ?? "unexpected error"}` };
}

/** An `invalid_path` error quoting the input. */
export function invalidPath(input: string, reason: string): BackendError {
  return { code: "invalid_path", message: `invalid path ${JSON.stringify(input)}: ${reason}` };
}
