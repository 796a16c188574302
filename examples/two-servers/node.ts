import type { BaseCheckpointSaver, Pregel } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import { compactCheckpointer } from "delve/checkpoint";
import { createEmbedServer, Hono } from "../../serve/embed.js";
import { storeThreads } from "../langgraph-postgres/threads.js";
import { pgPool, runLock } from "./run-lock.js";

/** Options of {@link serverNode}. */
export interface ServerNodeOptions {
  /** The PostgreSQL every server of the group uses. */
  url: string;
  /** The schema of the group's checkpoints, store and thread list (created on first use). */
  schema: string;
  /**
   * The served graphs by id: the compiled graph of each agent (`agent.graph`). One instance
   * per node: the embed server sets its checkpointer and store on the graph object.
   */
  graphs: Record<string, Pregel<any, any>>;
  /** Wrap the saver in `compactCheckpointer` (default true). */
  compact?: boolean;
  /**
   * When a step's writes and checkpoint are saved. "sync" (the default here): before the next
   * step starts, so a server that dies never loses a step it moved past, and another server
   * continues after it. LangGraph's own default, "async", saves while the next steps run;
   * under load the saves fall seconds behind the run, and a kill then loses finished steps,
   * whose tools run again on the next server. "exit": only when the run ends.
   */
  durability?: "sync" | "async" | "exit";
  /**
   * Connections this server may open: `saver` for the checkpoints (default 10), `store`
   * (default 4) and `runs`, one per thread running here (default 50). Keep the group's sum
   * under the database's `max_connections`.
   */
  connections?: { saver?: number; store?: number; runs?: number };
}

/** One server's app and what to close at exit. */
export interface ServerNode {
  /** LangGraph's embed routes behind the cross-server run lock, and `GET /ok`. */
  app: Hono;
  /** The checkpointer runs use (the wrapper, or the plain saver). */
  checkpointer: BaseCheckpointSaver;
  close(): Promise<void>;
}

/**
 * One of several LangGraph servers on one PostgreSQL: `PostgresSaver` (wrapped by
 * `compactCheckpointer` unless `compact: false`), `PostgresStore` for the `/user/` files and
 * the thread list, and a per-thread run lock in the same database, so a thread can be run on
 * any server of the group, one run at a time.
 *
 * @example
 * const node = await serverNode({ url, schema: "delve_group", graphs: { desk: agent.graph } });
 * serve({ fetch: node.app.fetch, port: 2024 });
 */
export async function serverNode(options: ServerNodeOptions): Promise<ServerNode> {
  const { url, schema, connections = {} } = options;
  const lock = runLock(url, connections.runs ?? 50);
  const saver = new PostgresSaver(pgPool(url, connections.saver ?? 10), undefined, {
    schema,
  });
  const store = new PostgresStore({
    connectionOptions: {
      connectionString: url,
      max: connections.store ?? 4,
      idleTimeoutMillis: 5000,
    },
    schema,
  });
  // Servers of a group start together: one sets the schema up at a time.
  await lock.exclusive(`delve-setup:${schema}`, async () => {
    await saver.setup();
    await store.setup();
  });
  const checkpointer = options.compact === false ? saver : compactCheckpointer(saver);
  const durability = options.durability ?? "sync";
  const graphs = Object.fromEntries(
    Object.entries(options.graphs).map(([id, graph]) => [id, graph.withConfig({ durability })]),
  );
  const embed = createEmbedServer({
    graph: graphs as Parameters<typeof createEmbedServer>[0]["graph"],
    checkpointer,
    store,
    threads: storeThreads(store),
  });
  const app = new Hono();
  app.get("/ok", (c) => c.json({ ok: true }));
  app.use("/threads/:thread_id/runs/*", lock.middleware);
  app.route("/", embed);
  return {
    app,
    checkpointer,
    close: async () => {
      await Promise.allSettled([lock.close(), saver.end(), store.stop()]);
    },
  };
}
