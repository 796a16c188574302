import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemorySaver, StateGraph, StateSchema } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  ownSaverDatabase,
  replaceSaverSerde,
  saverDatabase,
  saverSerde,
  setUpSqliteSaver,
  wrapSaverPool,
} from "../../src/langchain-seam/saver-databases.js";
import { SqliteStore } from "../../src/stores/sqlite-store.js";

const dir = mkdtempSync(join(tmpdir(), "delve-seam-db-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// No connection is made until the saver or store is used.
const PG_URL = "postgresql://nobody@127.0.0.1:1/none";
const State = new StateSchema({ count: z.number().default(0) });

describe("where LangGraph's savers and stores keep their database, as Delve reads it", () => {
  it("SqliteSaver keeps its better-sqlite3 Database in `db`", () => {
    const saver = SqliteSaver.fromConnString(join(dir, "threads.db"));
    const found = saverDatabase(saver);
    expect(found?.kind, "SqliteSaver.db is an open better-sqlite3 Database").toBe("sqlite");
    expect(found?.kind === "sqlite" && found.db).toBe((saver as unknown as { db: unknown }).db);
  });

  it("PostgresSaver keeps its pg Pool in `pool` and its schema in `options.schema`", () => {
    const saver = PostgresSaver.fromConnString(PG_URL, { schema: "agents" });
    const found = saverDatabase(saver);
    expect(found?.kind, "PostgresSaver.pool is a pg Pool").toBe("postgres");
    expect(
      found?.kind === "postgres" && found.schema,
      "PostgresSaver.options.schema is its schema",
    ).toBe("agents");
  });

  it("PostgresStore keeps both in `core.pool` and `core.schema`", () => {
    const store = PostgresStore.fromConnString(PG_URL, { schema: "memories" });
    const found = saverDatabase(store);
    expect(found?.kind, "PostgresStore.core.pool is a pg Pool").toBe("postgres");
    expect(
      found?.kind === "postgres" && found.schema,
      "PostgresStore.core.schema is its schema",
    ).toBe("memories");
  });

  it("a wrapper is looked through; Delve's SqliteStore is found; MemorySaver has none", () => {
    const saver = SqliteSaver.fromConnString(join(dir, "wrapped.db"));
    expect(saverDatabase({ inner: saver })?.kind).toBe("sqlite");
    const store = SqliteStore.open(join(dir, "store.db"));
    expect(saverDatabase(store)?.kind).toBe("sqlite");
    store.close();
    expect(saverDatabase(new MemorySaver())).toBeUndefined();
  });

  it("ownSaverDatabase does not look through a wrapper (a wrapper's reads are its own)", () => {
    const saver = SqliteSaver.fromConnString(join(dir, "own.db"));
    expect(ownSaverDatabase({ inner: saver })).toBeUndefined();
    expect(ownSaverDatabase(saver)?.kind).toBe("sqlite");
  });
});

describe("replacing a saver's serializer or pool in place, as Delve does", () => {
  it("SqliteSaver reads `serde` on every call, so a replaced serializer serves the next put", async () => {
    const saver = SqliteSaver.fromConnString(join(dir, "serde.db"));
    let dumps = 0;
    replaceSaverSerde(saver, (own) => ({
      dumpsTyped: (value: unknown) => {
        dumps += 1;
        return own.dumpsTyped(value);
      },
      loadsTyped: (type: string, value: Uint8Array | string) => own.loadsTyped(type, value),
    }));
    expect(saverSerde(saver)).toBe((saver as unknown as { serde: unknown }).serde);
    const graph = new StateGraph(State)
      .addNode("step", () => ({ count: 1 }))
      .addEdge("__start__", "step")
      .compile({ checkpointer: saver });
    await graph.invoke({ count: 0 }, { configurable: { thread_id: "t" } });
    expect(dumps, "SqliteSaver serializes through this.serde at call time").toBeGreaterThan(0);
  });

  it("SqliteSaver's setup() creates its tables and may be called again", () => {
    const saver = SqliteSaver.fromConnString(join(dir, "setup.db"));
    setUpSqliteSaver(saver);
    setUpSqliteSaver(saver);
    const db = (saver as unknown as { db: { prepare(sql: string): { all(): any[] } } }).db;
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
      .all()
      .map((r) => r.name);
    expect(tables, "SqliteSaver's protected setup() creates checkpoints and writes").toEqual(
      expect.arrayContaining(["checkpoints", "writes"]),
    );
  });

  it("PostgresSaver keeps its pool in `pool`, so a wrapped pool takes its later queries", () => {
    const saver = PostgresSaver.fromConnString(PG_URL, { schema: "agents" });
    const own = (saver as unknown as { pool: unknown }).pool;
    let given: unknown;
    expect(
      wrapSaverPool(saver, (pool) => {
        given = pool;
        return Object.create(pool as object);
      }),
    ).toBe(true);
    expect(given, "wrapSaverPool is given PostgresSaver.pool").toBe(own);
    expect(saverDatabase(saver)?.kind === "postgres" && saverDatabase(saver)).toMatchObject({
      schema: "agents",
    });
    expect(
      wrapSaverPool(new MemorySaver(), (p) => p),
      "MemorySaver has no pool",
    ).toBe(false);
  });
});
