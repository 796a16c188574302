// One of two (or more) LangGraph servers on one PostgreSQL, serving the ticket desk: start it
// twice, on two ports (or two machines), with the same DELVE_PG_URL and PG_SCHEMA, and a
// thread can be run on either, one run at a time (see run-lock.ts), and continued on the
// other when one dies. README.md in this folder has the set-up.
//
//   (cd serve && npm ci)   # once
//   DELVE_PG_URL=postgresql://user@host:5432/db PORT=2024 npx tsx examples/two-servers/server.ts
//   DELVE_PG_URL=postgresql://user@host:5432/db PORT=2025 npx tsx examples/two-servers/server.ts
//
// Environment: DELVE_PG_URL (required), PG_SCHEMA (default "delve_group"), HOST (default
// 127.0.0.1), PORT (default 2024), DELVE_COMPACT=0 for the plain PostgresSaver.
import { serve } from "../../serve/embed.js";
import { graph } from "../ticket-desk/graph.js";
import { serverNode } from "./node.js";

const url = process.env.DELVE_PG_URL;
if (!url) {
  console.error("two-servers: set DELVE_PG_URL to a PostgreSQL connection string");
  process.exit(2);
}
const schema = process.env.PG_SCHEMA ?? "delve_group";
const host = process.env.HOST ?? "127.0.0.1";
const port = Number(process.env.PORT ?? 2024);

const node = await serverNode({
  url,
  schema,
  // The compiled graph inside the agent, as `langgraphjs dev` unwraps it too.
  graphs: { ticket_desk: graph.graph },
  compact: process.env.DELVE_COMPACT !== "0",
});
const server = serve({ fetch: node.app.fetch, hostname: host, port }, (info) => {
  console.log(
    `ticket desk, one of a group on PostgreSQL (schema ${schema}): http://${host}:${info.port}`,
  );
});

let closing = false;
async function shutdown() {
  if (closing) return;
  closing = true;
  server.close();
  await node.close();
  process.exit(0);
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
