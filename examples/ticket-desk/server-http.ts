// The ticket desk MCP server over streamable HTTP, on 127.0.0.1 only:
// `TICKET_DESK_TOKEN=secret node --import tsx server-http.ts <db> [port]`. Every request must
// carry `Authorization: Bearer <TICKET_DESK_TOKEN>`; others get 401. Port 0 (the default)
// picks a free one; the address is printed on stdout.
import { openTicketStore } from "./database.js";
import { startTicketHttpServer } from "./http-server.js";

const dbPath = process.argv[2] ?? process.env.TICKET_DESK_DB;
const token = process.env.TICKET_DESK_TOKEN;
if (!dbPath || !token) {
  console.error("usage: TICKET_DESK_TOKEN=<token> server-http.ts <ticket database> [port]");
  process.exit(2);
}
const { url } = await startTicketHttpServer({
  store: openTicketStore(dbPath),
  token,
  port: Number(process.argv[3] ?? process.env.TICKET_DESK_PORT ?? 0),
});
console.log(`ticket-desk MCP server listening on ${url}`);
