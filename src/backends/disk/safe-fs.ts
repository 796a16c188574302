import fs from "node:fs";
import nodePath from "node:path";
import type { PolicyOperation } from "../protocol/path-policy.js";
import type { BackendErrorCode } from "../protocol/protocol.js";
import {
  C,
  DIR_FLAGS,
  descriptorPath,
  errnoOf,
  FsFailure,
  O_NOFOLLOW,
  O_NONBLOCK,
  type OpenDir,
  type OpenFile,
  PROC_FD,
  type TreeJail,
} from "./safe-fs-core.js";
import { removeConfined, type WalkEntry, walkTree } from "./safe-fs-tree.js";

export {
  descriptorPath,
  errnoOf,
  FsFailure,
  joinShown,
  type OpenDir,
  type OpenFile,
} from "./safe-fs-core.js";
export type { WalkEntry } from "./safe-fs-tree.js";

/**
 * Judges the canonical virtual path an operation really reaches when a symlink led there
 * from the path asked for; throws an `FsFailure` to refuse. Called before anything is created
 * under a followed link, and again on the descriptor finally opened.
 */
export type PathJudge = (operation: PolicyOperation, canonical: string) => void;

/**
 * Confined access to a directory tree on the real disk, for `FilesystemBackend`.
 *
 * A path check alone cannot keep a process inside a root: a symlink can be created or swapped
 * between the check and the use. So every directory is entered through an open descriptor
 * whose real path (`/proc/self/fd/N`) is checked, and every next step is taken *through* that
 * descriptor (`/proc/self/fd/N/name`, Linux's `openat` for Node), so renaming or swapping an
 * ancestor afterwards cannot redirect it. Final components are opened with `O_NOFOLLOW`; a
 * symlink is followed only when the descriptor it yields is inside the root. Without `/proc`
 * (macOS) the same checks run on path strings, which narrows but does not close the race.
 */

/**
 * Opens, walks and removes files under one root without ever leaving it. With `confined`
 * false (the backend's non-virtual mode) the root is "/" and only the mechanics remain.
 *
 * @example
 * const jail = new Confinement("/srv/agent", true);
 * const { fd } = jail.openFile(["notes", "a.md"], "/notes/a.md", "read");
 */
export class Confinement implements TreeJail {
  constructor(
    /** Real path of the root; "/" when not confined. */
    readonly root: string,
    readonly confined: boolean,
  ) {}

  /** The path that names `name` inside an open directory. */
  child(dir: OpenDir, name: string): string {
    if (PROC_FD) return `/proc/self/fd/${dir.fd}/${name}`;
    return dir.host === "/" ? `/${name}` : `${dir.host}/${name}`;
  }

  /** The path to list an open directory with `readdirSync`. */
  listing(dir: OpenDir): string {
    return PROC_FD ? `/proc/self/fd/${dir.fd}` : dir.host;
  }

  close(dir: OpenDir | undefined): void {
    if (dir) fs.closeSync(dir.fd);
  }

  /**
   * Opens the directory at `segments` (relative to the root), following only symlinks that
   * land inside the root. With `create`, missing directories are made one by one, each in
   * its verified parent.
   */
  openDir(segments: readonly string[], shown: string, create = false, judge?: PathJudge): OpenDir {
    let dir = this.openRoot();
    try {
      for (const name of segments) {
        // A directory made below a followed symlink is a write of its real path.
        const beforeCreate =
          judge && this.followed(dir)
            ? () => judge("write", this.canonicalChild(dir, name))
            : undefined;
        const next = this.enterDir(dir, name, shown, create, beforeCreate);
        this.close(dir);
        dir = next;
      }
      return dir;
    } catch (error) {
      this.close(dir);
      throw error;
    }
  }

  /**
   * Opens the file at `segments` for reading, for reading and writing, or for writing
   * (created with its parent directories when missing; never truncated here). Refuses
   * directories, special files, and in confined mode files with more than one hard link,
   * which may be the same inode as a file outside the root.
   */
  openFile(
    segments: readonly string[],
    shown: string,
    mode: "read" | "readwrite" | "write",
    judge?: PathJudge,
  ): OpenFile {
    if (segments.length === 0) throw new FsFailure("is_directory", `${shown} is a directory`);
    const parent = this.openDir(segments.slice(0, -1), shown, mode === "write", judge);
    const operation = mode === "read" ? "read" : "write";
    const asked = `/${segments.join("/")}`;
    try {
      const name = segments[segments.length - 1]!;
      const target = this.child(parent, name);
      let fd: number | undefined;
      let created = false;
      const canonical = this.canonicalChild(parent, name);
      if (judge && canonical !== asked) judge(operation, canonical);
      if (mode === "write") {
        try {
          // O_EXCL never follows a symlink, so a new file is always made in the verified parent.
          fd = fs.openSync(target, C.O_WRONLY | C.O_CREAT | C.O_EXCL | O_NOFOLLOW | O_NONBLOCK);
          created = true;
        } catch (error) {
          if (errnoOf(error) !== "EEXIST") throw error;
        }
      }
      const flags = mode === "read" ? C.O_RDONLY : mode === "write" ? C.O_WRONLY : C.O_RDWR;
      fd ??= this.openExisting(target, flags, shown);
      try {
        const stat = this.checkRegular(fd, shown);
        const real = this.virtualOf(this.realPathOf(fd, target));
        if (judge && real !== asked && real !== canonical) judge(operation, real);
        return { fd, stat, created, canonical: real };
      } catch (error) {
        fs.closeSync(fd);
        if (created) fs.rmSync(target, { force: true });
        throw error;
      }
    } finally {
      this.close(parent);
    }
  }

  /**
   * Calls `visit` for each file under `start` in path order, never descending into a
   * symlinked directory. Return false from `visit` to stop. `start` stays open.
   */
  walk(start: OpenDir, startShown: string, visit: (entry: WalkEntry) => boolean): void {
    walkTree(this, start, startShown, visit);
  }

  /**
   * Opens a walked file for reading: a regular file without following anything, a symlink
   * only when it resolves to a regular file inside the root. Undefined when refused.
   */
  openEntry(entry: WalkEntry): OpenFile | undefined {
    try {
      const path = this.child(entry.dir, entry.name);
      const fd = entry.symlink
        ? this.openThroughSymlink(path, C.O_RDONLY, entry.shown)
        : fs.openSync(path, C.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
      try {
        return { fd, stat: this.checkRegular(fd, entry.shown), created: false };
      } catch {
        fs.closeSync(fd);
        return undefined;
      }
    } catch {
      return undefined;
    }
  }

  /**
   * The stats of a directory entry as a listing shows it, with its canonical virtual path: a
   * symlink's target when it lies inside the root; undefined for a symlink that leads out or
   * nowhere, or a vanished entry.
   */
  statEntry(dir: OpenDir, name: string): { stat: fs.Stats; canonical: string } | undefined {
    const path = this.child(dir, name);
    try {
      const own = fs.lstatSync(path);
      if (!own.isSymbolicLink()) return { stat: own, canonical: this.canonicalChild(dir, name) };
      const real = fs.realpathSync(path);
      if (!this.inside(real)) return undefined;
      return { stat: fs.statSync(real), canonical: this.virtualOf(real) };
    } catch {
      return undefined; // vanished since the listing, or a dangling or looping symlink
    }
  }

  /**
   * Removes the file, symlink (never its target) or directory tree at `segments` and
   * returns the display path of every file and symlink removed.
   */
  remove(segments: readonly string[], shown: string, judge?: PathJudge): string[] {
    return removeConfined(this, segments, shown, (parent, name) => {
      const canonical = this.canonicalChild(parent, name);
      if (judge && canonical !== `/${segments.join("/")}`) judge("delete", canonical);
    });
  }

  /**
   * The virtual path of a real host path inside the root ("/" for the root itself); the host
   * path unchanged when not confined.
   */
  virtualOf(real: string): string {
    if (!this.confined || this.root === "/") return real;
    return real === this.root ? "/" : real.slice(this.root.length);
  }

  /** The canonical virtual path of an open directory (where its descriptor really is). */
  canonicalDir(dir: OpenDir): string {
    return this.virtualOf(dir.host);
  }

  /** The canonical virtual path of `name` inside an open directory, not following `name`. */
  canonicalChild(dir: OpenDir, name: string): string {
    const base = this.canonicalDir(dir);
    return base === "/" ? `/${name}` : `${base}/${name}`;
  }

  /** The canonical virtual path of an open descriptor (a file reached through a symlink). */
  canonicalOf(fd: number, path: string): string {
    return this.virtualOf(this.realPathOf(fd, path));
  }

  /** True when a real host path is the root or below it. */
  inside(real: string): boolean {
    if (!this.confined || this.root === "/") return true;
    return real === this.root || real.startsWith(`${this.root}/`);
  }

  private openRoot(): OpenDir {
    const fd = fs.openSync(this.root, DIR_FLAGS | O_NOFOLLOW);
    return { fd, host: this.root, walked: "/" };
  }

  // True when `dir` was reached through a symlink (its real path is not the path walked).
  private followed(dir: OpenDir): boolean {
    return dir.walked !== undefined && dir.walked !== this.canonicalDir(dir);
  }

  private enterDir(
    dir: OpenDir,
    name: string,
    shown: string,
    create: boolean,
    beforeCreate?: () => void,
  ): OpenDir {
    const path = this.child(dir, name);
    const walked =
      dir.walked === undefined || dir.walked === "/" ? `/${name}` : `${dir.walked}/${name}`;
    let fd = this.openDirNoFollow(path, create, beforeCreate);
    if (fd === undefined) {
      if (!fs.lstatSync(path).isSymbolicLink()) {
        throw new FsFailure("not_a_directory", `${shown}: a parent of this path is a file`);
      }
      // A symlinked directory: followed only towards the inside, then judged again by where
      // the descriptor really is (the link may be swapped in between).
      this.checkSymlink(path, shown, create ? "permission_denied" : "not_found");
      fd = fs.openSync(path, DIR_FLAGS);
    }
    const host = this.realPathOf(fd, path);
    if (!this.inside(host)) {
      fs.closeSync(fd);
      throw new FsFailure(
        "permission_denied",
        `${shown}: a symlink in the path leads outside the root`,
      );
    }
    return { fd, host, walked };
  }

  // The descriptor of a real directory (made first when missing and `create`), or undefined
  // when the name is a symlink or a file.
  private openDirNoFollow(
    path: string,
    create: boolean,
    beforeCreate?: () => void,
  ): number | undefined {
    try {
      return fs.openSync(path, DIR_FLAGS | O_NOFOLLOW);
    } catch (error) {
      const code = errnoOf(error);
      if (code === "ENOTDIR" || code === "ELOOP") return undefined;
      if (code !== "ENOENT" || !create) throw error;
    }
    beforeCreate?.();
    try {
      fs.mkdirSync(path);
    } catch (error) {
      // EEXIST: a dangling symlink or a racing creator; the no-follow open below decides.
      if (errnoOf(error) !== "EEXIST") throw error;
    }
    return this.openDirNoFollow(path, false);
  }

  private openExisting(path: string, flags: number, shown: string): number {
    try {
      return fs.openSync(path, flags | O_NOFOLLOW | O_NONBLOCK);
    } catch (error) {
      const code = errnoOf(error);
      if (code !== "ELOOP" && code !== "EMLINK") throw error;
      return this.openThroughSymlink(path, flags, shown);
    }
  }

  // Follows a final symlink only to an existing target inside the root: never O_CREAT or
  // O_TRUNC, so even a target swapped in after the check is opened but never changed.
  private openThroughSymlink(path: string, flags: number, shown: string): number {
    this.checkSymlink(path, shown, "not_found");
    const fd = fs.openSync(path, flags | O_NONBLOCK);
    if (!this.inside(this.realPathOf(fd, path))) {
      fs.closeSync(fd);
      throw new FsFailure(
        "permission_denied",
        `${shown}: a symlink in the path leads outside the root`,
      );
    }
    return fd;
  }

  // Refuses a symlink whose target is outside the root; a dangling one inside is `missing`.
  private checkSymlink(path: string, shown: string, missing: BackendErrorCode): void {
    let real: string;
    try {
      real = fs.realpathSync(path);
    } catch (error) {
      if (errnoOf(error) !== "ENOENT") throw error;
      // Dangling: judge where the link points as written.
      real = nodePath.resolve(fs.realpathSync(nodePath.dirname(path)), fs.readlinkSync(path));
      if (this.inside(real)) {
        const message = `${shown}: a symlink in the path points to a missing file`;
        throw new FsFailure(missing, missing === "not_found" ? message : `${message}; refused`);
      }
    }
    if (!this.inside(real)) {
      throw new FsFailure(
        "permission_denied",
        `${shown}: a symlink in the path leads outside the root`,
      );
    }
  }

  private checkRegular(fd: number, shown: string): fs.Stats {
    const stat = fs.fstatSync(fd);
    if (stat.isDirectory()) throw new FsFailure("is_directory", `${shown} is a directory`);
    if (!stat.isFile()) throw new FsFailure("unsupported", `${shown} is not a regular file`);
    if (this.confined && stat.nlink > 1) {
      throw new FsFailure(
        "permission_denied",
        `${shown} has ${stat.nlink} hard links and may alias a file outside the root; refused`,
      );
    }
    return stat;
  }

  private realPathOf(fd: number, path: string): string {
    if (!PROC_FD) return fs.realpathSync(path);
    return descriptorPath(fd);
  }
}
