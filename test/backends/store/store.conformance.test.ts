import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  BaseStore,
  InMemoryStore,
  type Operation,
  type OperationResults,
} from "@langchain/langgraph";
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import { StoreBackend } from "delve";
import { afterAll, describe } from "vitest";
import { SqliteStore } from "../../../src/stores/sqlite-store.js";
import { runBackendConformance } from "../../../src/testing/conformance.js";
import { testPostgres, uniqueSchema } from "../../helpers/postgres.js";

const files = (ns: string) => () => ["conformance", ns];

runBackendConformance("StoreBackend on InMemoryStore", () => ({
  backend: new StoreBackend({ namespace: files("mem"), store: new InMemoryStore() }),
}));

runBackendConformance("StoreBackend on SqliteStore", () => {
  const dir = mkdtempSync(join(tmpdir(), "delve-store-conf-"));
  const store = SqliteStore.open(join(dir, "store.db"));
  return {
    backend: new StoreBackend({ namespace: files("sqlite"), store }),
    cleanup: () => {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

/** A store that opens its SQLite file for each batch and closes it after: only the file lives on. */
class ReopenedEachTime extends BaseStore {
  constructor(private readonly path: string) {
    super();
  }
  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const store = SqliteStore.open(this.path);
    try {
      return await store.batch(operations);
    } finally {
      store.close();
    }
  }
}

runBackendConformance("StoreBackend on a SqliteStore file reopened for every operation", () => {
  const dir = mkdtempSync(join(tmpdir(), "delve-store-conf-"));
  return {
    backend: new StoreBackend({
      namespace: files("reopened"),
      store: new ReopenedEachTime(join(dir, "store.db")),
    }),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
});

const pg = await testPostgres();
afterAll(() => pg?.stop());

describe.skipIf(!pg)("on a real PostgreSQL server", () => {
  // One schema for the file; each test gets its own namespace, so every backend starts empty.
  const store = pg
    ? PostgresStore.fromConnString(pg.url, { schema: uniqueSchema("conf") })
    : undefined;
  afterAll(() => store?.stop());
  let n = 0;
  runBackendConformance("StoreBackend on PostgresStore", () => ({
    backend: new StoreBackend({ namespace: files(`pg${n++}`), store: store! }),
  }));
});
