// The ticket desk agent as a LangGraph graph, for LangGraph's own server: `langgraph.json`
// at the repo root names `graph` below (`serve/node_modules/.bin/langgraphjs dev`). Offline it
// runs on the scripted desk model; with OPENAI_API_KEY or ANTHROPIC_API_KEY set, on that
// provider, like `npm run demo`. TICKET_DESK_DB=<path> serves an existing ticket database;
// otherwise a freshly seeded one in a temporary folder, removed at exit.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import { CompositeBackend, createDeepAgent, StateBackend, StoreBackend } from "delve";
import { connectMcp } from "delve/mcp";
import { ticketDeskStdio } from "./agent.js";
import { seedTicketDb } from "./database.js";
import { servedModel } from "./served-model.js";

const SYSTEM_PROMPT =
  "You are a support desk assistant. Ticket data comes only from the ticket tools: never invent it. Save what you are asked to write with write_file. Files under /user/ are the user's own and stay across conversations.";

function ticketDatabase(): string {
  if (process.env.TICKET_DESK_DB) return process.env.TICKET_DESK_DB;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ticket-desk-served-"));
  process.once("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
  const dbPath = path.join(dir, "tickets.db");
  seedTicketDb(dbPath);
  return dbPath;
}

// One MCP connection for the server's lifetime; the ticket server is a child process over
// stdio, so it ends with the server.
const mcp = await connectMcp({ ticket: ticketDeskStdio(ticketDatabase()) });

/**
 * The served ticket desk: the MCP ticket tools and Delve's file tools. Files live in the
 * thread's state (`files`), except `/user/`, which is kept in the server's store per
 * authenticated user (`configurable.langgraph_auth_user`, set by the custom auth in
 * `examples/ticket-desk/auth.ts`), so a user sees their `/user/` files in every thread and
 * nobody else does. `edit_file` waits for a human decision (`interruptOn`). The MemorySaver
 * only satisfies Delve's "interruptOn needs a checkpointer" check: the LangGraph server puts
 * its own checkpointer (and store) in its place.
 */
export const graph = createDeepAgent({
  model: servedModel(),
  tools: mcp.tools,
  systemPrompt: SYSTEM_PROMPT,
  backend: new CompositeBackend({
    default: new StateBackend(),
    routes: {
      "/user/": new StoreBackend({
        namespace: (ctx) => ["ticket-desk", "users", ctx.user?.id ?? "anonymous", "files"],
      }),
    },
  }),
  interruptOn: { edit_file: true },
  checkpointer: new MemorySaver(),
});
