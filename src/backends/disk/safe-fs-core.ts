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
  /** The virtual path asked for to reach it, when opened by `openDir` (may differ from `host` through a symlink). */
  walked?: string;
}

/** An open regular file, verified to live inside the root. */
export interface OpenFile {
  fd: number;
  stat: fs.Stats;
  /** True when the open created the file. */
  created: boolean;
  /** The canonical virtual path of the descriptor (where a symlink led), when known. */
  canonical?: string;
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

/**
 * The real path of an open descriptor from `/proc/self/fd`. The kernel appends " (deleted)"
 * once the entry is unlinked, but a sibling may also be *named* "<root> (deleted)": the
 * suffix is stripped only when the descriptor's entry really is gone (no links left, or the
 * stripped path is another file), else the name is taken literally; a deleted entry is
 * refused as missing, since nothing can be done inside it.
 */
export function descriptorPath(fd: number): string {
  const real = fs.readlinkSync(`/proc/self/fd/${fd}`);
  const SUFFIX = " (deleted)";
  if (!real.endsWith(SUFFIX)) return real;
  const own = fs.fstatSync(fd);
  let named: fs.Stats | undefined;
  try {
    named = fs.lstatSync(real);
  } catch {
    named = undefined;
  }
  // An existing entry with this very name and inode: a real name ending in " (deleted)".
  if (named && named.dev === own.dev && named.ino === own.ino && own.nlink > 0) return real;
  throw new FsFailure("not_found", "the file or directory was removed while in use");
}

/** Writes all of `data` to `fd` from offset 0 (a single write may take only part of it). */
export function writeAll(fd: number, data: Uint8Array): void {
  let at = 0;
  while (at < data.length) at += fs.writeSync(fd, data, at, data.length - at, at);
}
