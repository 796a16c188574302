import fs from "node:fs";
import nodePath from "node:path";
import {
  invalidOption,
  rejectUnknownOptions,
  resolveRootDir,
} from "../protocol/backend-options.js";
import {
  DEFAULT_GLOB_MAX_RESULTS,
  DEFAULT_GREP_MAX_COUNT,
  fileMatchesGlob,
} from "../protocol/file-query.js";
import { looksBinary, mediaTypeOf } from "../protocol/media-types.js";
import { activePathPolicy, type PathPolicy } from "../protocol/path-policy.js";
import { checkVirtualPath } from "../protocol/paths.js";
import type {
  BackendError,
  BackendProtocol,
  DeleteResult,
  EditOptions,
  EditResult,
  FileDownloadResult,
  FileInfo,
  FileUpload,
  FileUploadResult,
  GlobOptions,
  GlobResult,
  GrepOptions,
  GrepResult,
  LsResult,
  ReadOptions,
  ReadResult,
  WriteResult,
} from "../protocol/protocol.js";
import { pageText, replaceInText } from "../protocol/text-content.js";
import { ByteSearch } from "./byte-search.js";
import { failureOf, invalidPath } from "./disk-errors.js";
import { judgeOf, shows } from "./disk-policy.js";
import {
  Confinement,
  errnoOf,
  FsFailure,
  joinShown,
  type OpenDir,
  type PathJudge,
} from "./safe-fs.js";
import { writeAll } from "./safe-fs-core.js";

/** Options of `FilesystemBackend`. */
export interface FilesystemBackendOptions {
  /** The directory the backend works in. Must exist. */
  rootDir: string;
  /**
   * True (the default): paths are virtual ("/a.md" is `rootDir/a.md`) and nothing outside
   * `rootDir` can be reached. False: paths are host paths (relative ones start at `rootDir`)
   * and there is no protection at all.
   */
  virtualMode?: boolean;
  /** Files larger than this are refused by read, edit and download; grep reads them in chunks. */
  maxFileSizeMb?: number;
}

const OPTION_KEYS = ["rootDir", "virtualMode", "maxFileSizeMb"];

// A located path: the segments below the walk root and the path shown in results.
type Located = { segments: string[]; shown: string } | { error: BackendError };

/**
 * Files on the real disk, under `rootDir`. In virtual mode (the default) no path leaves the
 * root: `..`, `~`, NUL bytes, backslashes and encoded separators are refused as
 * `invalid_path`; symlinks leading out (even ones a command creates later, or swaps in while
 * a call runs) are refused as `permission_denied`, and so are files with more than one hard
 * link, since one may be the same file as one outside (this includes hard-linked package
 * stores such as pnpm's). `grep` and `glob` never enter a symlinked directory. With
 * `virtualMode: false` paths are host paths and nothing is protected. Changes are
 * permanent. `grep` runs in-process (no ripgrep needed). Under a path policy (the file tools'
 * permissions), a symlink inside the root is judged by the path it leads to, and `ls`, `glob`
 * and `grep` drop hidden entries before their caps.
 *
 * @example
 * const backend = new FilesystemBackend({ rootDir: "/srv/agent-workspace" });
 * await backend.write("/notes/todo.md", "- ship it\n");
 * const { matches } = await backend.grep("ship", { glob: "*.md" });
 */
export class FilesystemBackend implements BackendProtocol {
  /** The real path of the root directory. */
  readonly rootDir: string;
  readonly virtualMode: boolean;
  readonly maxFileSizeBytes: number;
  protected readonly tree: Confinement;

  constructor(options: FilesystemBackendOptions) {
    if (new.target === FilesystemBackend) {
      rejectUnknownOptions(options, OPTION_KEYS, "FilesystemBackend");
    }
    const { rootDir, virtualMode = true, maxFileSizeMb = 10 } = options ?? ({} as never);
    this.rootDir = resolveRootDir(rootDir, new.target.name);
    if (typeof virtualMode !== "boolean") {
      throw invalidOption(new.target.name, "virtualMode", virtualMode, "must be a boolean");
    }
    if (typeof maxFileSizeMb !== "number" || !(maxFileSizeMb > 0)) {
      throw invalidOption(new.target.name, "maxFileSizeMb", maxFileSizeMb, "must be > 0");
    }
    this.virtualMode = virtualMode;
    this.maxFileSizeBytes = Math.floor(maxFileSizeMb * 1024 * 1024);
    this.tree = new Confinement(virtualMode ? this.rootDir : "/", virtualMode);
  }

  async ls(path: string): Promise<LsResult> {
    const at = this.locate(path);
    if ("error" in at) return at;
    const policy = activePathPolicy();
    return this.guard(at.shown, () => {
      const dir = this.openSearchDir(at.segments, at.shown, policy);
      if (!dir) {
        const message = `${at.shown} leads through a symlink to a directory that may not be read`;
        throw new FsFailure("permission_denied", message);
      }
      try {
        const files: FileInfo[] = [];
        for (const name of fs.readdirSync(this.tree.listing(dir))) {
          const entry = this.tree.statEntry(dir, name);
          if (!entry) continue; // a symlink that leads out of the root or nowhere
          const { stat, canonical } = entry;
          const shown = joinShown(at.shown, name);
          if (!shows(policy, shown, canonical, stat.isDirectory())) continue;
          const modifiedAt = stat.mtime.toISOString();
          if (stat.isDirectory()) files.push({ path: `${shown}/`, isDir: true, modifiedAt });
          else files.push({ path: shown, isDir: false, size: stat.size, modifiedAt });
        }
        return { files: files.sort(byPath) };
      } finally {
        this.tree.close(dir);
      }
    });
  }

  async read(path: string, options: ReadOptions = {}): Promise<ReadResult> {
    const at = this.locate(path);
    if ("error" in at) return at;
    const judge = judgeOf(activePathPolicy());
    return this.guard(at.shown, () => {
      const bytes = this.readBytes(at.segments, at.shown, judge);
      if (mediaTypeOf(at.shown) || looksBinary(bytes)) {
        return { kind: "binary", bytes: new Uint8Array(bytes), size: bytes.length };
      }
      return pageText(bytes.toString("utf8"), options, bytes.length);
    });
  }

  async write(path: string, content: string | Uint8Array): Promise<WriteResult> {
    const at = this.locate(path);
    if ("error" in at) return at;
    const judge = judgeOf(activePathPolicy());
    return this.guard(at.shown, () => {
      const data = typeof content === "string" ? Buffer.from(content, "utf8") : content;
      const file = this.tree.openFile(at.segments, at.shown, "write", judge);
      try {
        fs.ftruncateSync(file.fd, 0);
        writeAll(file.fd, data);
      } finally {
        fs.closeSync(file.fd);
      }
      return { path: at.shown, created: file.created };
    });
  }

  async edit(
    path: string,
    oldString: string,
    newString: string,
    options: EditOptions = {},
  ): Promise<EditResult> {
    const at = this.locate(path);
    if ("error" in at) return at;
    const judge = judgeOf(activePathPolicy());
    return this.guard(at.shown, () => {
      const file = this.tree.openFile(at.segments, at.shown, "readwrite", judge);
      try {
        this.checkSize(file.stat.size, at.shown);
        const bytes = fs.readFileSync(file.fd);
        if (mediaTypeOf(at.shown) || looksBinary(bytes)) {
          return { error: { code: "unsupported", message: `${at.shown} is a binary file` } };
        }
        const outcome = replaceInText(
          bytes.toString("utf8"),
          oldString,
          newString,
          options.replaceAll,
        );
        if ("error" in outcome) return { error: outcome.error, occurrences: outcome.occurrences };
        fs.ftruncateSync(file.fd, 0);
        writeAll(file.fd, Buffer.from(outcome.text, "utf8"));
        return { path: at.shown, occurrences: outcome.occurrences };
      } finally {
        fs.closeSync(file.fd);
      }
    });
  }

  async delete(path: string): Promise<DeleteResult> {
    const at = this.locate(path);
    if ("error" in at) return at;
    if (at.segments.length === 0 || (!this.virtualMode && at.shown === this.rootDir)) {
      return { error: invalidPath(path, "refusing to delete the root directory") };
    }
    const judge = judgeOf(activePathPolicy());
    return this.guard(at.shown, () => ({
      deleted: this.tree.remove(at.segments, at.shown, judge),
    }));
  }

  async glob(pattern: string, options: GlobOptions = {}): Promise<GlobResult> {
    const at = this.locate(options.path ?? this.defaultSearchPath());
    if ("error" in at) return at;
    const max = capOf(options.maxResults, DEFAULT_GLOB_MAX_RESULTS);
    const policy = activePathPolicy();
    return this.guard(at.shown, () => {
      const dir = this.openSearchDir(at.segments, at.shown, policy);
      if (!dir) return { files: [] };
      const found: FileInfo[] = [];
      let truncated = false;
      try {
        this.tree.walk(dir, at.shown, (entry) => {
          if (!fileMatchesGlob(pattern, entry.shown, at.shown)) return true;
          const seen = this.tree.statEntry(entry.dir, entry.name);
          if (!seen?.stat.isFile()) return true;
          // Hidden files are dropped before the cap, so the cap says nothing about them.
          if (!shows(policy, entry.shown, seen.canonical, false)) return true;
          const { stat } = seen;
          if (found.length >= max) {
            truncated = true;
            return false;
          }
          const modifiedAt = stat.mtime.toISOString();
          found.push({ path: entry.shown, isDir: false, size: stat.size, modifiedAt });
          return true;
        });
      } finally {
        this.tree.close(dir);
      }
      return truncated ? { files: found, truncated } : { files: found };
    });
  }

  /**
   * Literal search. Each file is read synchronously into one reused buffer and searched as
   * raw bytes; only files that contain the pattern are decoded and split into lines, which
   * is what makes thousands of files cheap.
   */
  async grep(pattern: string, options: GrepOptions = {}): Promise<GrepResult> {
    const at = this.locate(options.path ?? this.defaultSearchPath());
    if ("error" in at) return at;
    const max = capOf(options.maxCount, DEFAULT_GREP_MAX_COUNT);
    const search = new ByteSearch(pattern, max, this.maxFileSizeBytes);
    const policy = activePathPolicy();
    return this.guard(at.shown, () => {
      let dir: OpenDir | undefined;
      try {
        dir = this.openSearchDir(at.segments, at.shown, policy);
      } catch (error) {
        // The path names one file (or a symlink to one): search it alone.
        const notDir =
          error instanceof FsFailure
            ? error.code === "not_a_directory"
            : errnoOf(error) === "ENOTDIR";
        if (!notDir || at.segments.length === 0) throw error;
        const dirShown = nodePath.posix.dirname(at.shown);
        if (options.glob && !fileMatchesGlob(options.glob, at.shown, dirShown)) {
          return { matches: [] };
        }
        const file = this.tree.openFile(at.segments, at.shown, "read");
        // A file reached through a link into a hidden place is searched as nothing at all.
        if (!shows(policy, at.shown, file.canonical ?? at.shown, false)) {
          fs.closeSync(file.fd);
          return { matches: [] };
        }
        search.file(file.fd, file.stat.size, at.shown);
        return search.result();
      }
      if (!dir) return { matches: [] };
      const opened = dir;
      try {
        this.tree.walk(opened, at.shown, (entry) => {
          if (options.glob && !fileMatchesGlob(options.glob, entry.shown, at.shown)) return true;
          if (mediaTypeOf(entry.name)) return true;
          // Hidden files are skipped before counting, so counts and the cap reveal nothing;
          // a symlink is judged again by where its descriptor really is.
          const canonical = this.tree.canonicalChild(entry.dir, entry.name);
          if (!shows(policy, entry.shown, canonical, false)) return true;
          const file = this.tree.openEntry(entry);
          if (!file) return true;
          const real = entry.symlink
            ? this.tree.canonicalOf(file.fd, this.tree.child(entry.dir, entry.name))
            : canonical;
          if (real !== canonical && !shows(policy, entry.shown, real, false)) {
            fs.closeSync(file.fd);
            return true;
          }
          return search.file(file.fd, file.stat.size, entry.shown);
        });
      } finally {
        this.tree.close(dir);
      }
      return search.result();
    });
  }

  async uploadFiles(files: FileUpload[]): Promise<FileUploadResult[]> {
    const results: FileUploadResult[] = [];
    for (const { path, content } of files) {
      const written = await this.write(path, content);
      results.push(written.error ? { path, error: written.error } : { path: written.path! });
    }
    return results;
  }

  async downloadFiles(paths: string[]): Promise<FileDownloadResult[]> {
    const judge = judgeOf(activePathPolicy());
    return paths.map((path): FileDownloadResult => {
      const at = this.locate(path);
      if ("error" in at) return { path, error: at.error };
      const read = this.guard(at.shown, () => ({
        content: new Uint8Array(this.readBytes(at.segments, at.shown, judge)),
      }));
      return { path: at.shown, ...read };
    });
  }

  // Where grep and glob search when no path is given: the root, or rootDir in host mode.
  private defaultSearchPath(): string {
    return this.virtualMode ? "/" : this.rootDir;
  }

  private locate(input: string): Located {
    if (this.virtualMode) {
      const checked = checkVirtualPath(input);
      if (!checked.ok) return { error: invalidPath(input, checked.reason) };
      return { segments: checked.path.split("/").filter(Boolean), shown: checked.path };
    }
    if (typeof input !== "string" || input.length === 0 || input.includes("\0")) {
      return { error: invalidPath(String(input), "path is empty or contains a NUL byte") };
    }
    const host = nodePath.resolve(this.rootDir, input);
    return { segments: host.split("/").filter(Boolean), shown: host };
  }

  // Opens a directory to list or search, or undefined when it was reached through a symlink
  // into a directory the policy hides (then nothing in it may be shown, or counted).
  private openSearchDir(
    segments: string[],
    shown: string,
    policy?: PathPolicy,
  ): OpenDir | undefined {
    const dir = this.tree.openDir(segments, shown);
    const canonical = this.tree.canonicalDir(dir);
    if (!policy || canonical === shown || policy.shows(canonical === "/" ? "/" : `${canonical}/`))
      return dir;
    this.tree.close(dir);
    return undefined;
  }

  private readBytes(segments: string[], shown: string, judge?: PathJudge): Buffer {
    const file = this.tree.openFile(segments, shown, "read", judge);
    try {
      this.checkSize(file.stat.size, shown);
      return fs.readFileSync(file.fd);
    } finally {
      fs.closeSync(file.fd);
    }
  }

  private checkSize(size: number, shown: string): void {
    if (size <= this.maxFileSizeBytes) return;
    const mb = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;
    throw new FsFailure(
      "too_large",
      `${shown} is ${mb(size)}, over the ${mb(this.maxFileSizeBytes)} limit`,
    );
  }

  // Runs one operation, turning any refusal or system error into a result `error`.
  private guard<T extends object>(shown: string, run: () => T): T | { error: BackendError } {
    try {
      return run();
    } catch (error) {
      return { error: failureOf(error, shown) };
    }
  }
}

function capOf(value: number | undefined, fallback: number): number {
  if (value === undefined || Number.isNaN(value)) return fallback;
  return value === Number.POSITIVE_INFINITY ? value : Math.max(0, Math.floor(value));
}

function byPath(a: FileInfo, b: FileInfo): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}
