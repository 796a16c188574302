// The ticket desk MCP server over stdio: `node --import tsx server-stdio.ts <db>` (or
// TICKET_DESK_DB=<db>). The client starts it as a child process.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { openTicketStore } from "./database.js";
import { createTicketServer } from "./server.js";

const dbPath = process.argv[2] ?? process.env.TICKET_DESK_DB;
if (!dbPath) {
  console.error("usage: server-stdio.ts <ticket database> (or set TICKET_DESK_DB)");
  process.exit(2);
}
let store: ReturnType<typeof openTicketStore>;
try {
  store = openTicketStore(dbPath);
} catch (error) {
  console.error(`ticket-desk: cannot open the database ${dbPath}: ${(error as Error).message}`);
  process.exit(1);
}
// The client closing our stdin means it is gone: leave rather than linger as an orphan.
process.stdin.on("end", () => process.exit(0));
await createTicketServer(store).connect(new StdioServerTransport());
