/**
 * One server process of the two-server suite: examples/two-servers' `serverNode` twice, on
 * the plain PostgresSaver (under /plain) and through compactCheckpointer (under /compact),
 * each in its own schema, both serving the ledger agent. Environment: DELVE_PG_URL,
 * PG_SCHEMA (the prefix), PORT, DELVE_SERVER_NAME ("A" or "B"), LEDGER (a file path).
 */

import { type ServerNode, serverNode } from "../../examples/two-servers/node.js";
import { Hono, serve } from "../../serve/embed.js";
import { ledgerAgent } from "./two-servers-graph.js";

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`two-servers-node: ${name} is not set`);
  return value;
};
const url = env("DELVE_PG_URL");
const at = { server: env("DELVE_SERVER_NAME"), ledger: env("LEDGER") };

const root = new Hono();
root.get("/ok", (c) => c.json({ ok: true }));
const nodes: ServerNode[] = [];
for (const kind of ["plain", "compact"] as const) {
  const node = await serverNode({
    url,
    schema: `${env("PG_SCHEMA")}_${kind}`,
    graphs: { desk: ledgerAgent(at).graph },
    compact: kind === "compact",
    // DELVE_DURABILITY=async shows what LangGraph's default loses to a kill (see the README).
    durability: process.env.DELVE_DURABILITY === "async" ? "async" : "sync",
    // Two processes of two nodes each on one test database (max_connections 100).
    connections: { saver: 8, store: 2, runs: 20 },
  });
  nodes.push(node);
  root.route(`/${kind}`, node.app);
}
const server = serve({ fetch: root.fetch, hostname: "127.0.0.1", port: Number(env("PORT")) });

process.on("SIGTERM", async () => {
  server.close();
  await Promise.allSettled(nodes.map((n) => n.close()));
  process.exit(0);
});
