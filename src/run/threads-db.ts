import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { compactCheckpointer } from "../checkpoint/compact-checkpointer.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { dropThreadSnapshots } from "./snapshots/turn-log.js";

/** What a thread keeps so that `-c`, `--thread` and `delve approve` need no flags. */
export interface ThreadSettings {
  model: string;
  /** The `--agent` module (absolute path), or undefined for the built-in workspace agent. */
  agent?: string;
  sandbox: "bwrap" | "none";
  approval: "ask" | "edits" | "yolo";
  /** The `--mcp` file, when one was given. */
  mcp?: string;
  /** The `--replay` cassette, when the thread runs on one. */
  replay?: string;
  /** True when the built-in agent has the `ask_user` tool (`--ask-user`, config `askUser`). */
  askUser?: boolean;
  /** With the model `human`: the `--human-io` directory (absolute); unset, the terminal. */
  humanIo?: string;
}

/** Where a forked thread came from: its parent thread and the checkpoint it started at. */
export interface ThreadParent {
  thread_id: string;
  /** null: forked before the parent's first checkpoint (only the edited task carried over). */
  checkpoint_id: string | null;
  /** The parent checkpoint's step number (-1 before the first). */
  step: number;
}

/** The process running a thread now (set while `delve run`, approve or the viewer drives it). */
export interface ThreadRunner {
  pid: number;
  started_at: string;
}

/** One row of the workspace's threads table. */
export interface ThreadRow {
  id: string;
  title: string;
  created_at: string;
  updated_at: string;
  settings: ThreadSettings;
  /** Set on a thread forked from another one. */
  parent?: ThreadParent;
  /** Set while a process runs the thread; cleared when its run ends. */
  runner?: ThreadRunner;
}

/** The workspace's `.delve/threads.db`: checkpoints (compact), approval claims, thread settings. */
export interface ThreadsDb {
  readonly file: string;
  readonly checkpointer: BaseCheckpointSaver;
  /** The better-sqlite3 connection (claims and settings share it with the checkpoints). */
  readonly db: any;
  create(title: string, settings: ThreadSettings, parent?: ThreadParent): ThreadRow;
  get(id: string): ThreadRow | undefined;
  /** Newest first. */
  list(): ThreadRow[];
  touch(id: string): void;
  /** Marks the thread as run by process `pid` now, or (null) as run by nobody. */
  setRunner(id: string, pid: number | null): void;
  updateSettings(id: string, settings: ThreadSettings): void;
  delete(id: string): Promise<boolean>;
  close(): void;
}

/** Where a workspace's threads live. */
export function threadsDbFile(workspace: string): string {
  return path.join(workspace, ".delve", "threads.db");
}

/**
 * Opens (creating) the workspace's threads database. Several `delve` processes may use it at
 * once (a run and an approve): WAL mode and a busy timeout let them wait instead of failing.
 */
export async function openThreadsDb(workspace: string, create = true): Promise<ThreadsDb> {
  const file = threadsDbFile(workspace);
  if (!create && !fs.existsSync(file)) return emptyDb(file);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const Database = (await importOptional("better-sqlite3")).default;
  const { SqliteSaver } = await importOptional("@langchain/langgraph-checkpoint-sqlite");
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("busy_timeout = 10000");
  db.exec(`CREATE TABLE IF NOT EXISTS delve_threads (
    id TEXT PRIMARY KEY, title TEXT NOT NULL, created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL, settings TEXT NOT NULL)`);
  // Columns added after the table's first release: a database made before gets them here.
  const columns = new Set(db.pragma("table_info(delve_threads)").map((c: any) => c.name));
  for (const column of ["parent", "runner"]) {
    if (!columns.has(column)) db.exec(`ALTER TABLE delve_threads ADD COLUMN ${column} TEXT`);
  }
  const checkpointer = compactCheckpointer(new SqliteSaver(db));
  const row = ({ parent, runner, ...r }: any): ThreadRow => ({
    ...r,
    settings: JSON.parse(r.settings),
    ...(parent ? { parent: JSON.parse(parent) } : {}),
    ...(runner ? { runner: JSON.parse(runner) } : {}),
  });
  return {
    file,
    checkpointer,
    db,
    create(title, settings, parent) {
      const now = new Date().toISOString();
      const thread: ThreadRow = {
        id: randomUUID(),
        title,
        created_at: now,
        updated_at: now,
        settings,
        ...(parent ? { parent } : {}),
      };
      db.prepare(
        "INSERT INTO delve_threads (id, title, created_at, updated_at, settings, parent) VALUES (?, ?, ?, ?, ?, ?)",
      ).run(
        thread.id,
        title,
        now,
        now,
        JSON.stringify(settings),
        parent ? JSON.stringify(parent) : null,
      );
      return thread;
    },
    get(id) {
      const r = db.prepare("SELECT * FROM delve_threads WHERE id = ?").get(id);
      return r ? row(r) : undefined;
    },
    list() {
      return db
        .prepare("SELECT * FROM delve_threads ORDER BY updated_at DESC, rowid DESC")
        .all()
        .map(row);
    },
    touch(id) {
      db.prepare("UPDATE delve_threads SET updated_at = ? WHERE id = ?").run(
        new Date().toISOString(),
        id,
      );
    },
    setRunner(id, pid) {
      const runner = pid === null ? null : { pid, started_at: new Date().toISOString() };
      db.prepare("UPDATE delve_threads SET runner = ? WHERE id = ?").run(
        runner && JSON.stringify(runner),
        id,
      );
    },
    updateSettings(id, settings) {
      db.prepare("UPDATE delve_threads SET settings = ? WHERE id = ?").run(
        JSON.stringify(settings),
        id,
      );
    },
    async delete(id) {
      const found = db.prepare("DELETE FROM delve_threads WHERE id = ?").run(id).changes > 0;
      await checkpointer.deleteThread(id);
      dropThreadSnapshots(workspace, id);
      return found;
    },
    close() {
      db.close();
    },
  };
}

// A workspace without a database yet: read commands list nothing instead of creating one.
function emptyDb(file: string): ThreadsDb {
  return {
    file,
    checkpointer: undefined as never,
    db: undefined,
    create: () => {
      throw new Error("read-only");
    },
    get: () => undefined,
    list: () => [],
    touch: () => {},
    setRunner: () => {},
    updateSettings: () => {},
    delete: async () => false,
    close: () => {},
  };
}

async function importOptional(name: string): Promise<any> {
  try {
    return await import(name);
  } catch {
    throw new ConfigurationError(
      "MISSING_DEPENDENCY",
      `The threads database (.delve/threads.db) needs the package ${name}: npm install ${name}`,
      { package: name },
    );
  }
}
