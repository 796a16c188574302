import fs from "node:fs";
import type { BackendErrorCode } from "../protocol/protocol.js";

/**
 * The pieces `Confinement` and the confined walk share: the open flags, whether
 * `/proc/self/fd` can name an open descriptor, the failure they throw, and the handles they
 * pass around. See `safe-fs.ts` for why every step goes through a descriptor.
 */

export const C = fs.constants;
// Zero where the platform lacks the flag (Windows): Confinement's checks still refuse escapes.
export const O_NOFOLLOW = C.O_NOFOLLOW ?? 0;
const O_DIRECTORY = C.O_DIRECTORY ?? 0;
export const O_NONBLOCK = C.O_NONBLOCK ?? 0;
export const DIR_FLAGS = C.O_RDONLY | O_DIRECTORY;

/** True when `/proc/self/fd/N` names an open descriptor (Linux). */
export const PROC_FD = detectProcFd();

function detectProcFd(): boolean {
  try {
    const fd = fs.openSync("/", DIR_FLAGS);
    try {
      return fs.readlinkSync(`/proc/self/fd/${fd}`) === "/";
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return false;
  }
}

/**
 * A refusal or failure inside the confined tree, carrying the protocol error code. Thrown by
 * `Confinement` and turned into a result `error` at the backend method boundary.
 *
 * @example
 * try { confinement.openDir(["a"], "/a") } catch (e) { if (e instanceof FsFailure) e.code }
 */
export class FsFailure extends Error {
  constructor(
    readonly code: BackendErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "FsFailure";
  }
}

/** An open directory: its descriptor and its real host path. */
export interface OpenDir {
  fd: number;
  host: string;
}

/** An open regular file, verified to live inside the root. */
export interface OpenFile {
  fd: number;
  stat: fs.Stats;
  /** True when the open created the file. */
  created: boolean;
}

/** The errno code of a Node error, or undefined. */
export function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** Joins a display directory path and a name ("/" + "a" is "/a"). */
export function joinShown(dir: string, name: string): string {
  return dir === "/" ? `/${name}` : `${dir}/${name}`;
}

/** The part of a confinement that the tree walk and delete use: resolved names, listings, closing. */
export interface TreeJail {
  child(dir: OpenDir, name: string): string;
  listing(dir: OpenDir): string;
  close(dir: OpenDir | undefined): void;
  openDir(segments: readonly string[], shown: string, create?: boolean): OpenDir;
}
