// Relies on: inside a run LangGraph hands tools an AsyncBatchedStore (`lg_name`
// "AsyncBatchedStore") wrapping the agent's store in its `store` field; PostgresStore
// (@langchain/langgraph-checkpoint-postgres/store) is recognised by its class name, as it
// is an optional peer Delve does not import. `lg_name` and `store` are not public API.
// Checked against: @langchain/langgraph 1.7.3, @langchain/langgraph-checkpoint 1.2.2,
// @langchain/langgraph-checkpoint-postgres 1.0.5.
import type { BaseStore } from "@langchain/langgraph";

/** True for the per-run batching wrapper LangGraph puts around the agent's store. */
export function isRunBatchedStore(store: unknown): boolean {
  return (store as { lg_name?: string } | null)?.lg_name === "AsyncBatchedStore";
}

/** The store a run's batching wrapper delegates to; any other store itself. */
export function unbatchedStore(store: BaseStore): BaseStore {
  return isRunBatchedStore(store) ? (store as unknown as { store: BaseStore }).store : store;
}

/** True when `store` is a PostgresStore or a subclass of it (batching wrapper looked through). */
export function isPostgresStore(store: BaseStore): boolean {
  for (let p = Object.getPrototypeOf(unbatchedStore(store)); p && p !== Object.prototype; ) {
    if (p.constructor?.name === "PostgresStore") return true;
    p = Object.getPrototypeOf(p);
  }
  return false;
}
