import type { SqliteHandle } from "../langchain-seam/saver-databases.js";
import { sqliteAncestors } from "../langchain-seam/saver-tables.js";
import { ensureSqliteSchema } from "../schema/sqlite.js";
import type { ChunkTable, StoredAncestor } from "./chunk-table.js";
import type { Chunk } from "./large-strings.js";

/**
 * Chunks in the SQLite file of a `SqliteSaver` (tables `delve_*`, created on first use by src/schema/sqlite.ts), and
 * the one-query delta-history read over the saver's own `checkpoints` and `writes` tables.
 */
export class SqliteChunkTable implements ChunkTable {
  readonly #db: SqliteHandle;
  #ready = false;

  constructor(db: SqliteHandle) {
    this.#db = db;
  }

  #setup(): void {
    if (this.#ready) return;
    ensureSqliteSchema(this.#db, "chunks");
    this.#ready = true;
  }

  // No cache of what is saved: another connection may have deleted it since. INSERT OR
  // IGNORE of a chunk that exists costs a key lookup.
  put(thread: string, chunks: readonly Chunk[]): void {
    if (chunks.length === 0) return;
    this.#setup();
    const chunk = this.#db.prepare("INSERT OR IGNORE INTO delve_chunks (hash, data) VALUES (?, ?)");
    const ref = this.#db.prepare(
      "INSERT OR IGNORE INTO delve_chunk_refs (thread_id, hash) VALUES (?, ?)",
    );
    this.#db.transaction(() => {
      for (const c of chunks) {
        chunk.run(c.hash, c.text);
        ref.run(thread, c.hash);
      }
    })();
  }

  get(hashes: readonly string[], thread?: string): Map<string, string> {
    this.#setup();
    const out = new Map<string, string>();
    const unique = [...new Set(hashes)];
    for (let i = 0; i < unique.length; i += 500) {
      const part = unique.slice(i, i + 500);
      const marks = part.map(() => "?").join(",");
      const rows =
        thread === undefined
          ? this.#db
              .prepare(`SELECT hash, data FROM delve_chunks WHERE hash IN (${marks})`)
              .all(...part)
          : this.#db
              .prepare(
                `SELECT c.hash, c.data FROM delve_chunk_refs r JOIN delve_chunks c ON c.hash = r.hash
                 WHERE r.thread_id = ? AND r.hash IN (${marks})`,
              )
              .all(thread, ...part);
      for (const row of rows) out.set(row.hash, row.data);
    }
    return out;
  }

  deleteThread(thread: string): void {
    this.#setup();
    this.#db.transaction(() => {
      this.#db
        .prepare(
          `DELETE FROM delve_chunks WHERE hash IN (SELECT hash FROM delve_chunk_refs WHERE thread_id = @thread)
           AND NOT EXISTS (SELECT 1 FROM delve_chunk_refs r WHERE r.hash = delve_chunks.hash AND r.thread_id <> @thread)`,
        )
        .run({ thread });
      for (const table of ["delve_chunk_refs", "delve_checkpoint_channels", "delve_task_paths"]) {
        this.#db.prepare(`DELETE FROM ${table} WHERE thread_id = ?`).run(thread);
      }
    })();
  }

  noteCheckpoint(thread: string, ns: string, id: string, channels: string[]): void {
    this.#setup();
    this.#db
      .prepare(
        "INSERT OR REPLACE INTO delve_checkpoint_channels (thread_id, checkpoint_ns, checkpoint_id, channels) VALUES (?, ?, ?, ?)",
      )
      .run(thread, ns, id, JSON.stringify(channels));
  }

  noteTaskPath(thread: string, ns: string, id: string, taskId: string, path: string): void {
    this.#setup();
    this.#db
      .prepare(
        "INSERT OR IGNORE INTO delve_task_paths (thread_id, checkpoint_ns, checkpoint_id, task_id, task_path) VALUES (?, ?, ?, ?, ?)",
      )
      .run(thread, ns, id, taskId, path);
  }

  ancestors(
    thread: string,
    ns: string,
    id: string,
    channels: readonly string[],
  ): Promise<StoredAncestor[]> {
    this.#setup();
    return sqliteAncestors(this.#db, thread, ns, id, channels, true);
  }
}
