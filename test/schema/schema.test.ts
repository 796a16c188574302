import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import Database from "better-sqlite3";
import { SqliteStore } from "delve/sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { compactCheckpointer } from "../../src/checkpoint/compact-checkpointer.js";
import { PostgresChunkTable } from "../../src/checkpoint/postgres-chunks.js";
import { SqliteChunkTable } from "../../src/checkpoint/sqlite-chunks.js";
import { claimTableOf } from "../../src/claims/claim-table.js";
import { saverDatabase } from "../../src/langchain-seam/saver-databases.js";
import { ensurePostgresSchema, POSTGRES_SCHEMA_VERSIONS } from "../../src/schema/postgres.js";
import { ensureSqliteSchema, SQLITE_SCHEMA_VERSIONS } from "../../src/schema/sqlite.js";
import { testPostgres, uniqueSchema } from "../helpers/postgres.js";

const dir = mkdtempSync(join(tmpdir(), "delve-schema-"));
const pg = await testPostgres();
afterAll(() => {
  pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const versionsIn = (path: string) => {
  const db = new Database(path, { readonly: true });
  try {
    return Object.fromEntries(
      (
        db.prepare("SELECT part, version FROM delve_schema_versions").all() as {
          part: string;
          version: number;
        }[]
      ).map((r) => [r.part, r.version]),
    );
  } finally {
    db.close();
  }
};

describe("Delve's own tables in a SQLite file", () => {
  it("a SqliteStore file records the store's and the claims' versions once both are used", async () => {
    const path = join(dir, "store.db");
    const store = SqliteStore.open(path);
    await claimTableOf(store).insert("k", "v");
    store.close();
    expect(versionsIn(path)).toEqual({
      store: SQLITE_SCHEMA_VERSIONS.store,
      claims: SQLITE_SCHEMA_VERSIONS.claims,
    });
  });

  it("a SqliteSaver's file gets the claims table beside LangGraph's, and PRAGMA user_version stays LangGraph's", async () => {
    const path = join(dir, "threads.db");
    const saver = SqliteSaver.fromConnString(path);
    await claimTableOf(saver).insert("k", "v");
    const { db } = saverDatabase(saver) as unknown as { db: Database.Database };
    expect(db.pragma("user_version", { simple: true })).toBe(0);
    expect(versionsIn(path)).toEqual({ claims: SQLITE_SCHEMA_VERSIONS.claims });
  });

  it("opening a file again migrates nothing and keeps the rows", async () => {
    const path = join(dir, "again.db");
    const first = SqliteStore.open(path);
    await first.put(["a"], "k", { n: 1 });
    first.close();
    const second = SqliteStore.open(path);
    expect((await second.get(["a"], "k"))?.value).toEqual({ n: 1 });
    second.close();
  });

  it("a file whose chunk tables predate versions opens with its chunks, recorded at version 1", () => {
    const path = join(dir, "old-chunks.db");
    const db = new Database(path);
    // The tables as compactCheckpointer created them before src/schema/ owned them.
    db.exec(`
CREATE TABLE IF NOT EXISTS delve_chunks (hash TEXT PRIMARY KEY, data TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS delve_chunk_refs (
  thread_id TEXT NOT NULL, hash TEXT NOT NULL, PRIMARY KEY (thread_id, hash)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS delve_chunk_refs_by_hash ON delve_chunk_refs (hash);
CREATE TABLE IF NOT EXISTS delve_checkpoint_channels (
  thread_id TEXT NOT NULL, checkpoint_ns TEXT NOT NULL, checkpoint_id TEXT NOT NULL,
  channels TEXT NOT NULL, PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS delve_task_paths (
  thread_id TEXT NOT NULL, checkpoint_ns TEXT NOT NULL, checkpoint_id TEXT NOT NULL,
  task_id TEXT NOT NULL, task_path TEXT NOT NULL,
  PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, task_id)) WITHOUT ROWID;
`);
    db.prepare("INSERT INTO delve_chunks VALUES ('h1', '\"old\"')").run();
    db.prepare("INSERT INTO delve_chunk_refs VALUES ('t', 'h1')").run();
    const chunks = new SqliteChunkTable(db as never);
    expect(chunks.get(["h1"], "t")).toEqual(new Map([["h1", '"old"']]));
    db.close();
    expect(versionsIn(path)).toEqual({ chunks: SQLITE_SCHEMA_VERSIONS.chunks });
    expect(SQLITE_SCHEMA_VERSIONS.chunks).toBe(1);
  });

  it("a SqliteSaver wrapped by compactCheckpointer gets the chunk tables, versioned", async () => {
    const path = join(dir, "compact.db");
    const saver = compactCheckpointer(SqliteSaver.fromConnString(path));
    await saver.chunks.put("t", [{ hash: "h", text: '"x"' }]);
    expect(versionsIn(path)).toEqual({ chunks: SQLITE_SCHEMA_VERSIONS.chunks });
  });

  it("a file written by a newer Delve is refused, naming the part and both versions", () => {
    const path = join(dir, "newer.db");
    const db = new Database(path);
    ensureSqliteSchema(db as never, "store");
    db.prepare("UPDATE delve_schema_versions SET version = 99 WHERE part = 'store'").run();
    db.close();
    expect(() => SqliteStore.open(path)).toThrow(
      /store tables .* schema version 99; .* knows up to 1/,
    );
  });
});

describe.skipIf(!pg)("Delve's own tables in a PostgreSQL schema", () => {
  it("the claims table and its version land in the saver's schema, once for racing callers", async () => {
    const schema = uniqueSchema("schema");
    const saver = PostgresSaver.fromConnString(pg!.url, { schema });
    const found = saverDatabase(saver);
    if (found?.kind !== "postgres") throw new Error("expected a postgres saver");
    await Promise.all([1, 2, 3, 4].map(() => ensurePostgresSchema(found.pool, schema, "claims")));
    const rows = await found.pool.query(
      `SELECT part, version FROM "${schema}".delve_schema_versions`,
    );
    expect(rows.rows).toEqual([{ part: "claims", version: POSTGRES_SCHEMA_VERSIONS.claims }]);
    expect(await claimTableOf(saver).insert("k", "v")).toBeUndefined();
    await found.pool.query(`UPDATE "${schema}".delve_schema_versions SET version = 7`);
    await expect(ensurePostgresSchema(found.pool, schema, "claims")).rejects.toThrow(
      /claims tables in schema .* version 7; .* knows up to 1/,
    );
    await saver.end();
  });

  it("the chunk tables land in the saver's schema, beside tables that predate versions", async () => {
    const schema = uniqueSchema("chunks");
    const saver = PostgresSaver.fromConnString(pg!.url, { schema });
    const found = saverDatabase(saver);
    if (found?.kind !== "postgres") throw new Error("expected a postgres saver");
    const s = `"${schema}"`;
    // delve_chunks as compactCheckpointer created it before src/schema/ owned it.
    await found.pool.query(`CREATE SCHEMA ${s};
CREATE TABLE IF NOT EXISTS ${s}.delve_chunks (hash text PRIMARY KEY, data text NOT NULL);
INSERT INTO ${s}.delve_chunks VALUES ('h1', '"old"')`);
    const chunks = new PostgresChunkTable(found.pool, schema);
    await chunks.put("t", [{ hash: "h2", text: '"new"' }]);
    expect(await chunks.get(["h1", "h2"])).toEqual(
      new Map([
        ["h1", '"old"'],
        ["h2", '"new"'],
      ]),
    );
    const rows = await found.pool.query(`SELECT part, version FROM ${s}.delve_schema_versions`);
    expect(rows.rows).toEqual([{ part: "chunks", version: POSTGRES_SCHEMA_VERSIONS.chunks }]);
    await saver.end();
  });
});
