// Creates the ticket desk's SQLite database: `npx tsx examples/ticket-desk/seed.ts <path>`
// (or TICKET_DESK_DB=<path>). An existing file at that path is replaced.
import { SEED_TICKETS, seedTicketDb } from "./database.js";

const path = process.argv[2] ?? process.env.TICKET_DESK_DB;
if (!path) {
  console.error("usage: seed.ts <database path> (or set TICKET_DESK_DB)");
  process.exit(2);
}
seedTicketDb(path);
console.log(`Seeded ${SEED_TICKETS.length} tickets into ${path}`);
