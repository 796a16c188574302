import { AsyncBatchedStore, InMemoryStore } from "@langchain/langgraph";
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import { describe, expect, it } from "vitest";
import {
  isPostgresStore,
  isRunBatchedStore,
  unbatchedStore,
} from "../../src/langchain-seam/stores.js";

describe("LangGraph store internals, as Delve reads them", () => {
  it("the run's batching wrapper says lg_name AsyncBatchedStore and keeps its store in `store`", () => {
    const inner = new InMemoryStore();
    const batched = new AsyncBatchedStore(inner);
    expect(isRunBatchedStore(batched), 'AsyncBatchedStore.lg_name is "AsyncBatchedStore"').toBe(
      true,
    );
    expect(unbatchedStore(batched), "AsyncBatchedStore keeps the store it wraps in `store`").toBe(
      inner,
    );
    expect(isRunBatchedStore(inner)).toBe(false);
    expect(unbatchedStore(inner)).toBe(inner);
  });

  it("PostgresStore is recognised by its class name, also inside the batching wrapper", () => {
    // No connection is made until the store is used.
    const store = PostgresStore.fromConnString("postgresql://nobody@127.0.0.1:1/none");
    expect(isPostgresStore(store), "the postgres store's class is named PostgresStore").toBe(true);
    expect(isPostgresStore(new AsyncBatchedStore(store))).toBe(true);
    expect(isPostgresStore(new InMemoryStore())).toBe(false);
  });
});
