// A content-addressed store of workspace snapshots under `.delve/snapshots/`: each file's
// bytes are kept once (objects/ab/cdef..., by SHA-256) and a snapshot is a tree object naming
// the hash of every file, so a turn that changes one file adds one object and one tree. A
// stat cache skips re-reading files whose size and times did not change. Symbolic links are
// recorded as links (their target text) and never followed; big and binary files are listed
// but not kept. Objects are stored deflated, as git's are: smaller, and the agent's own grep
// over the workspace does not find its files again in the store.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { deflateSync, inflateSync } from "node:zlib";
import { IgnoreRules } from "./ignore-rules.js";

/** What a snapshot keeps. */
export interface SnapshotLimits {
  /** Files larger than this are listed (size, time) but not kept. */
  maxFileBytes: number;
  /** A walk stops after this many files (the tree says `truncated`). */
  maxFiles: number;
}

/** The limits `delve run` snapshots with: 1 MiB per file, 20,000 files. */
export const SNAPSHOT_LIMITS: SnapshotLimits = { maxFileBytes: 1 << 20, maxFiles: 20_000 };

/** One path of a snapshot. */
export type TreeEntry =
  | { kind: "file"; hash: string; mode: number }
  | { kind: "link"; target: string }
  | { kind: "skipped"; reason: "too_big" | "binary"; size: number; mtime: number };

/** A snapshot of the workspace: workspace-relative path (with `/`) to entry. */
export interface Tree {
  entries: Record<string, TreeEntry>;
  /** The walk stopped at `maxFiles`: paths past it are not in `entries`. */
  truncated: boolean;
}

/** Whether two entries stand for the same content (both absent counts as the same). */
export function sameEntry(a: TreeEntry | undefined, b: TreeEntry | undefined): boolean {
  if (!a || !b) return a === b;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The snapshots' directory of a workspace. */
export const snapshotDir = (workspace: string) => path.join(workspace, ".delve", "snapshots");

/** A file's stat when it was hashed; `kept` when its bytes are in the store. */
type Cached = {
  size: number;
  mtime: number;
  ctime: number;
  ino: number;
  at: number;
  kept: boolean;
  entry: TreeEntry;
};

const { O_RDONLY, O_NOFOLLOW } = fs.constants;

/** The object store of one workspace. */
export class SnapshotStore {
  readonly workspace: string;
  readonly limits: SnapshotLimits;
  readonly #dir: string;
  #cache: Map<string, Cached> | undefined;
  /** Objects known to be in the store, and its directories made, by this instance. */
  readonly #stored = new Set<string>();
  readonly #dirs = new Set<string>();

  constructor(workspace: string, limits: SnapshotLimits = SNAPSHOT_LIMITS) {
    this.workspace = workspace;
    this.limits = limits;
    this.#dir = snapshotDir(workspace);
  }

  /**
   * Walks the workspace and returns its tree. With `keep` (the default) the files' bytes and
   * the tree are stored and `id` names the tree; without, only hashes are worked out (a
   * preview) and `id` is "".
   */
  take(keep = true): { id: string; tree: Tree } {
    const cache = this.#readCache();
    const entries: Record<string, TreeEntry> = {};
    let count = 0;
    let truncated = false;
    const visit = (dir: string, rel: string, rules: IgnoreRules) => {
      let names: fs.Dirent[];
      try {
        names = fs.readdirSync(dir, { withFileTypes: true });
      } catch {
        return;
      }
      const ignoreFile = names.find((d) => d.name === ".gitignore" && d.isFile());
      if (ignoreFile) rules = rules.with(rel, readSmall(path.join(dir, ".gitignore")));
      for (const d of names.sort((a, b) => (a.name < b.name ? -1 : 1))) {
        if (truncated) return;
        const file = rel ? `${rel}/${d.name}` : d.name;
        const absolute = path.join(dir, d.name);
        // Dirent types come from lstat: a link is a link, never what it points at.
        if (d.isDirectory()) {
          if (!rules.ignores(file, true)) visit(absolute, file, rules);
          continue;
        }
        if (!d.isFile() && !d.isSymbolicLink()) continue;
        if (rules.ignores(file, false)) continue;
        if (++count > this.limits.maxFiles) {
          truncated = true;
          return;
        }
        const entry = d.isSymbolicLink()
          ? linkEntry(absolute)
          : this.#fileEntry(absolute, file, cache, keep);
        if (entry) entries[file] = entry;
      }
    };
    visit(this.workspace, "", new IgnoreRules());
    const tree: Tree = { entries, truncated };
    if (!keep) return { id: "", tree };
    const id = this.#put(Buffer.from(JSON.stringify(tree)));
    for (const file of cache.keys()) if (!(file in entries)) cache.delete(file);
    this.#writeCache(cache);
    return { id, tree };
  }

  /** A stored tree, or undefined when it is missing or unreadable. */
  tree(id: string): Tree | undefined {
    const bytes = this.object(id);
    if (!bytes) return undefined;
    try {
      return JSON.parse(bytes.toString("utf8")) as Tree;
    } catch {
      return undefined;
    }
  }

  /** The bytes of a stored object (a file's content, or a tree). */
  object(hash: string): Buffer | undefined {
    if (!/^[0-9a-f]{64}$/.test(hash)) return undefined;
    try {
      return inflateSync(fs.readFileSync(this.#objectPath(hash)));
    } catch {
      return undefined;
    }
  }

  #objectPath(hash: string): string {
    return path.join(this.#dir, "objects", hash.slice(0, 2), hash.slice(2));
  }

  #put(bytes: Buffer): string {
    const hash = createHash("sha256").update(bytes).digest("hex");
    if (this.#stored.has(hash)) return hash;
    const file = this.#objectPath(hash);
    this.#stored.add(hash);
    if (fs.existsSync(file)) return hash;
    const dir = path.dirname(file);
    if (!this.#dirs.has(dir)) {
      fs.mkdirSync(dir, { recursive: true });
      this.#dirs.add(dir);
    }
    const temp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, deflateSync(bytes, { level: 1 }));
    fs.renameSync(temp, file);
    return hash;
  }

  #fileEntry(
    absolute: string,
    file: string,
    cache: Map<string, Cached>,
    keep: boolean,
  ): TreeEntry | undefined {
    // The cache is checked on lstat alone: an unchanged file is not opened.
    const hit = cache.get(file);
    if (hit && (hit.kept || !keep || hit.entry.kind !== "file")) {
      const stat = fs.lstatSync(absolute, { throwIfNoEntry: false });
      if (stat?.isFile() && fresh(hit, stat)) return hit.entry;
    }
    let fd: number;
    try {
      // A link put in the file's place since the listing is not followed: the open fails.
      fd = fs.openSync(absolute, O_RDONLY | O_NOFOLLOW);
    } catch {
      return undefined;
    }
    try {
      const stat = fs.fstatSync(fd);
      if (!stat.isFile()) return undefined;
      const at = Date.now();
      let entry: TreeEntry;
      if (stat.size > this.limits.maxFileBytes) {
        entry = { kind: "skipped", reason: "too_big", size: stat.size, mtime: stat.mtimeMs };
      } else {
        const bytes = fs.readFileSync(fd);
        if (bytes.subarray(0, 8000).includes(0)) {
          entry = { kind: "skipped", reason: "binary", size: stat.size, mtime: stat.mtimeMs };
        } else {
          const hash = keep ? this.#put(bytes) : createHash("sha256").update(bytes).digest("hex");
          entry = { kind: "file", hash, mode: stat.mode & 0o777 };
        }
      }
      cache.set(file, {
        size: stat.size,
        mtime: stat.mtimeMs,
        ctime: stat.ctimeMs,
        ino: stat.ino,
        at,
        kept: keep,
        entry,
      });
      return entry;
    } finally {
      fs.closeSync(fd);
    }
  }

  #readCache(): Map<string, Cached> {
    if (this.#cache) return this.#cache;
    try {
      const raw = JSON.parse(fs.readFileSync(path.join(this.#dir, "stat-cache.json"), "utf8"));
      this.#cache = new Map(Object.entries(raw));
    } catch {
      this.#cache = new Map();
    }
    return this.#cache;
  }

  #writeCache(cache: Map<string, Cached>): void {
    const file = path.join(this.#dir, "stat-cache.json");
    const temp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, JSON.stringify(Object.fromEntries(cache)));
    fs.renameSync(temp, file);
  }
}

// A file changed in the second it was hashed may keep its times: it is read again.
function fresh(hit: Cached, stat: fs.Stats): boolean {
  return (
    hit.size === stat.size &&
    hit.mtime === stat.mtimeMs &&
    hit.ctime === stat.ctimeMs &&
    hit.ino === stat.ino &&
    stat.mtimeMs < hit.at - 1000
  );
}

function linkEntry(absolute: string): TreeEntry | undefined {
  try {
    return { kind: "link", target: fs.readlinkSync(absolute) };
  } catch {
    return undefined;
  }
}

function readSmall(file: string): string {
  try {
    const fd = fs.openSync(file, O_RDONLY | O_NOFOLLOW);
    try {
      return fs.fstatSync(fd).size > 1 << 20 ? "" : fs.readFileSync(fd, "utf8");
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return "";
  }
}
