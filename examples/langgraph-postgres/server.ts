// The ticket desk served over HTTP on PostgreSQL: LangGraph's embed server
// (`createEmbedServer` from @langchain/langgraph-api, in serve/) with PostgresSaver for the
// checkpoints and PostgresStore for the users' files and the thread list, so threads
// survive a restart. One process per database here: the embed server queues a thread's runs
// in memory, so two processes would not see each other's queues (not tested).
//
//   (cd serve && npm ci)   # once
//   DELVE_PG_URL=postgresql://user@host:5432/db npx tsx examples/langgraph-postgres/server.ts
//
// Environment: DELVE_PG_URL (required), PG_SCHEMA (default "delve_serve"; created on first
// use), HOST (default 127.0.0.1), PORT (default 2024). Drive it with @langchain/langgraph-sdk
// (threads, runs.stream, getState, getHistory). The embed server has no auth, no runs/wait
// and no assistants routes (`@experimental` upstream): put your own auth in front of it.
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import { createEmbedServer, serve } from "../../serve/embed.js";
import { graph } from "../ticket-desk/graph.js";
import { storeThreads } from "./threads.js";

const url = process.env.DELVE_PG_URL;
if (!url) {
  console.error("langgraph-postgres: set DELVE_PG_URL to a PostgreSQL connection string");
  process.exit(2);
}
const schema = process.env.PG_SCHEMA ?? "delve_serve";
const host = process.env.HOST ?? "127.0.0.1";
const port = Number(process.env.PORT ?? 2024);

const checkpointer = PostgresSaver.fromConnString(url, { schema });
await checkpointer.setup();
const store = PostgresStore.fromConnString(url, { schema });
await store.setup();

const app = createEmbedServer({
  // The compiled graph inside the agent, as `langgraphjs dev` unwraps it too.
  graph: { ticket_desk: graph.graph },
  checkpointer,
  store,
  threads: storeThreads(store),
});
app.get("/ok", (c) => c.json({ ok: true }));

const server = serve({ fetch: app.fetch, hostname: host, port }, (info) => {
  console.log(`ticket desk on PostgreSQL (schema ${schema}): http://${host}:${info.port}`);
});

let closing = false;
async function shutdown() {
  if (closing) return;
  closing = true;
  server.close();
  await Promise.allSettled([checkpointer.end(), store.stop()]);
  process.exit(0);
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
