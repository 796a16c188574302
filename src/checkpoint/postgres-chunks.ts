import type { PostgresPool } from "../langchain-seam/saver-databases.js";
import { postgresAncestors } from "../langchain-seam/saver-tables.js";
import { ensurePostgresSchema, quotedSchema } from "../schema/postgres.js";
import type { ChunkTable, StoredAncestor } from "./chunk-table.js";
import type { Chunk } from "./large-strings.js";

/**
 * Chunks in the PostgreSQL schema of a `PostgresSaver` (tables `delve_*`, created on first
 * use), and the one-query delta-history read over the saver's own tables.
 */
export class PostgresChunkTable implements ChunkTable {
  readonly #pool: PostgresPool;
  readonly #s: string;
  readonly #schema: string;
  #ready: Promise<void> | undefined;

  constructor(pool: PostgresPool, schema = "public") {
    this.#pool = pool;
    this.#schema = schema;
    this.#s = quotedSchema(schema);
  }

  #setup(): Promise<void> {
    this.#ready ??= ensurePostgresSchema(this.#pool, this.#schema, "chunks").catch((error) => {
      this.#ready = undefined;
      throw error;
    });
    return this.#ready;
  }

  // Reads do not create the tables (a DDL round trip on every cold read): a table that is
  // not there yet is created and the read tried again.
  async #read(sql: string, params: unknown[]): Promise<{ rows: any[] }> {
    await this.#ready?.catch(() => {});
    try {
      return await this.#pool.query(sql, params);
    } catch (error) {
      if ((error as { code?: string }).code !== "42P01") throw error;
      await this.#setup();
      return this.#pool.query(sql, params);
    }
  }

  // One statement (one transaction, one round trip): the chunks and the thread's use of them
  // are committed together, before the caller writes the row that points at them. No cache
  // of what is saved: another process may have deleted it since.
  async put(thread: string, chunks: readonly Chunk[]): Promise<void> {
    if (chunks.length === 0) return;
    await this.#setup();
    const s = this.#s;
    await this.#pool.query(
      `WITH saved AS (INSERT INTO ${s}.delve_chunks (hash, data)
         SELECT * FROM unnest($2::text[], $3::text[]) ON CONFLICT DO NOTHING)
       INSERT INTO ${s}.delve_chunk_refs (thread_id, hash)
         SELECT DISTINCT $1::text, h FROM unnest($2::text[]) AS h ON CONFLICT DO NOTHING`,
      [thread, chunks.map((c) => c.hash), chunks.map((c) => c.text)],
    );
  }

  async get(hashes: readonly string[], thread?: string): Promise<Map<string, string>> {
    const s = this.#s;
    const unique = [...new Set(hashes)];
    const { rows } =
      thread === undefined
        ? await this.#read(
            `SELECT hash, data FROM ${s}.delve_chunks WHERE hash = ANY($1::text[])`,
            [unique],
          )
        : await this.#read(
            `SELECT c.hash, c.data FROM ${s}.delve_chunk_refs r JOIN ${s}.delve_chunks c ON c.hash = r.hash
             WHERE r.thread_id = $1 AND r.hash = ANY($2::text[])`,
            [thread, unique],
          );
    return new Map(rows.map((r) => [r.hash, r.data]));
  }

  async deleteThread(thread: string): Promise<void> {
    await this.#setup();
    const s = this.#s;
    await this.#pool.query(
      `WITH gone AS (DELETE FROM ${s}.delve_chunk_refs WHERE thread_id = $1 RETURNING hash)
       DELETE FROM ${s}.delve_chunks c USING gone WHERE c.hash = gone.hash
         AND NOT EXISTS (SELECT 1 FROM ${s}.delve_chunk_refs r WHERE r.hash = c.hash AND r.thread_id <> $1)`,
      [thread],
    );
    await this.#pool.query(`DELETE FROM ${s}.delve_task_paths WHERE thread_id = $1`, [thread]);
  }

  async noteTaskPath(
    thread: string,
    ns: string,
    id: string,
    taskId: string,
    path: string,
  ): Promise<void> {
    await this.#setup();
    await this.#pool.query(
      `INSERT INTO ${this.#s}.delve_task_paths (thread_id, checkpoint_ns, checkpoint_id, task_id, task_path)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
      [thread, ns, id, taskId, path],
    );
  }

  async ancestors(
    thread: string,
    ns: string,
    id: string,
    channels: readonly string[],
  ): Promise<StoredAncestor[]> {
    const pool = { query: (sql: string, params?: unknown[]) => this.#read(sql, params ?? []) };
    return postgresAncestors(pool, this.#schema, thread, ns, id, channels, true);
  }
}
