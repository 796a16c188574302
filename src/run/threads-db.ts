import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { compactCheckpointer } from "../checkpoint/compact-checkpointer.js";
import { ConfigurationError } from "../errors/configuration-error.js";

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

/** One row of the workspace's threads table. */
export interface ThreadRow {
  id: string;
  title: string;
  created_at: string;
  updated_at: string;
  settings: ThreadSettings;
}

/** The workspace's `.delve/threads.db`: checkpoints (compact), approval claims, thread settings. */
export interface ThreadsDb {
  readonly file: string;
  readonly checkpointer: BaseCheckpointSaver;
  /** The better-sqlite3 connection (claims and settings share it with the checkpoints). */
  readonly db: any;
  create(title: string, settings: ThreadSettings): ThreadRow;
  get(id: string): ThreadRow | undefined;
  /** Newest first. */
  list(): ThreadRow[];
  touch(id: string): void;
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
  const checkpointer = compactCheckpointer(new SqliteSaver(db));
  const row = (r: any): ThreadRow => ({ ...r, settings: JSON.parse(r.settings) });
  return {
    file,
    checkpointer,
    db,
    create(title, settings) {
      const now = new Date().toISOString();
      const thread = { id: randomUUID(), title, created_at: now, updated_at: now, settings };
      db.prepare(
        "INSERT INTO delve_threads (id, title, created_at, updated_at, settings) VALUES (?, ?, ?, ?, ?)",
      ).run(thread.id, title, now, now, JSON.stringify(settings));
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
    updateSettings(id, settings) {
      db.prepare("UPDATE delve_threads SET settings = ? WHERE id = ?").run(
        JSON.stringify(settings),
        id,
      );
    },
    async delete(id) {
      const found = db.prepare("DELETE FROM delve_threads WHERE id = ?").run(id).changes > 0;
      await checkpointer.deleteThread(id);
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
