import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { saverDatabase } from "../../src/langchain-seam/saver-databases.js";
import { SqliteStore } from "../../src/stores/sqlite-store.js";

const dir = mkdtempSync(join(tmpdir(), "delve-seam-db-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// No connection is made until the saver or store is used.
const PG_URL = "postgresql://nobody@127.0.0.1:1/none";

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
});
