import type { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import { HTTPException, type ThreadSaver } from "../../serve/embed.js";

const NAMESPACE = ["embed-threads"]; // no "_" or "%": PostgresStore refuses LIKE wildcards

type ThreadRecord = { metadata: Record<string, unknown>; created_at: string; updated_at: string };

/**
 * The embed server's thread list (`ThreadSaver`) kept in a PostgreSQL store, next to the
 * checkpoints: one item per thread, its metadata searchable by containment. A thread's
 * state is in the checkpointer; this only records that the thread exists.
 *
 * @example
 * createEmbedServer({ graph, checkpointer, store, threads: storeThreads(store) });
 */
export function storeThreads(store: PostgresStore): ThreadSaver {
  const thread = (id: string, record: ThreadRecord) => ({ thread_id: id, ...record });
  return {
    async get(id) {
      const item = await store.get(NAMESPACE, id);
      if (!item) throw new HTTPException(404, { message: `Thread ${id} not found` });
      return thread(id, item.value as ThreadRecord);
    },
    async set(id, { kind, metadata }) {
      const now = new Date().toISOString();
      const old = (await store.get(NAMESPACE, id))?.value as ThreadRecord | undefined;
      const record: ThreadRecord = {
        metadata: kind === "patch" ? { ...old?.metadata, ...metadata } : { ...metadata },
        created_at: old?.created_at ?? now,
        updated_at: now,
      };
      await store.put(NAMESPACE, id, record);
      return thread(id, record);
    },
    async delete(id) {
      await store.delete(NAMESPACE, id);
    },
    async *search({ metadata, limit, offset, sortBy, sortOrder }) {
      const filter = metadata && Object.keys(metadata).length > 0 ? { metadata } : undefined;
      const page = await store.search(NAMESPACE, { filter, limit, offset });
      const key = sortBy === "updated_at" ? "updated_at" : "created_at";
      const sign = sortOrder === "asc" ? 1 : -1;
      const records = page
        .map((item) => thread(item.key, item.value as ThreadRecord))
        .sort((a, b) => sign * a[key].localeCompare(b[key]));
      // The store does not count matches: the total is what this page shows.
      for (const t of records) yield { thread: t, total: offset + records.length };
    },
  };
}
