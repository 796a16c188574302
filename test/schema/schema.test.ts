import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import Database from "better-sqlite3";
import { SqliteStore } from "delve/sqlite";
import { afterAll, describe, expect, it } from "vitest";
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
});
