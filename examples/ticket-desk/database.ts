import fs from "node:fs";
import Database from "better-sqlite3";

/** The states a ticket can be in: the `status` enum of the tools' schemas. */
export const TICKET_STATUSES = ["unassigned", "processing", "closed"] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/** One ticket row. */
export interface Ticket {
  ticket_id: string;
  status: TicketStatus;
  category: string;
  summary: string;
  assignee: string | null;
  created_at: string;
  updated_at: string;
}

/** The tickets `seedTicketDb` writes: the two of the seed's task and a varied handful more. */
export const SEED_TICKETS: Ticket[] = [
  row("T-1001", "processing", "logistics", "express delayed two days", "Li (support)", "05-02"),
  row(
    "T-1002",
    "closed",
    "refund",
    "refund for a blender damaged in transit",
    "Wang (billing)",
    "05-03",
  ),
  row("T-1003", "unassigned", "inquiry", "how is the warranty period calculated", null, "05-04"),
  row(
    "T-1004",
    "processing",
    "billing",
    "charged twice for order 88231",
    "Zhao (billing)",
    "05-04",
  ),
  row(
    "T-1005",
    "unassigned",
    "logistics",
    "parcel marked delivered but not received",
    null,
    "05-05",
  ),
  row(
    "T-1006",
    "closed",
    "inquiry",
    "change the delivery address of an order",
    "Li (support)",
    "05-05",
  ),
  row(
    "T-1007",
    "unassigned",
    "technical",
    "app crashes when uploading a receipt photo",
    null,
    "05-06",
  ),
  row(
    "T-1008",
    "processing",
    "refund",
    "refund not received ten days after return",
    "Wang (billing)",
    "05-06",
  ),
  row("T-1009", "closed", "technical", "password reset email never arrives", "Chen (IT)", "05-07"),
];

function row(
  ticket_id: string,
  status: TicketStatus,
  category: string,
  summary: string,
  assignee: string | null,
  day: string,
): Ticket {
  const at = `2026-${day}T09:00:00Z`;
  return { ticket_id, status, category, summary, assignee, created_at: at, updated_at: at };
}

/**
 * Creates (or recreates) the ticket database at `path` and fills it with `tickets`.
 *
 * @example
 * seedTicketDb("/tmp/tickets.db");
 */
export function seedTicketDb(path: string, tickets: Ticket[] = SEED_TICKETS): void {
  fs.rmSync(path, { force: true });
  const db = new Database(path);
  try {
    db.exec(`CREATE TABLE tickets (
      ticket_id TEXT PRIMARY KEY,
      status TEXT NOT NULL CHECK (status IN (${TICKET_STATUSES.map((s) => `'${s}'`).join(", ")})),
      category TEXT NOT NULL,
      summary TEXT NOT NULL,
      assignee TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`);
    const insert = db.prepare(
      "INSERT INTO tickets VALUES (@ticket_id, @status, @category, @summary, @assignee, @created_at, @updated_at)",
    );
    db.transaction((all: Ticket[]) => {
      for (const t of all) insert.run(t);
    })(tickets);
  } finally {
    db.close();
  }
}

/** Read-only queries over the ticket database, as the MCP server uses them. */
export interface TicketStore {
  get(ticketId: string): Ticket | undefined;
  search(query: { keyword?: string; status?: TicketStatus; page: number; pageSize: number }): {
    total: number;
    items: Ticket[];
  };
  close(): void;
}

/**
 * Opens an existing ticket database read-only: the server can look tickets up but never
 * change them. Every query reads the file afresh, so edits made by others show at once.
 *
 * @example
 * const store = openTicketStore("/tmp/tickets.db");
 * store.get("T-1001")?.status; // "processing"
 */
export function openTicketStore(path: string): TicketStore {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  const byId = db.prepare("SELECT * FROM tickets WHERE ticket_id = ?");
  const where = `WHERE (@keyword IS NULL OR instr(lower(summary || ' ' || category), lower(@keyword)) > 0)
    AND (@status IS NULL OR status = @status)`;
  const count = db.prepare(`SELECT count(*) AS n FROM tickets ${where}`);
  const page = db.prepare(
    `SELECT * FROM tickets ${where} ORDER BY ticket_id LIMIT @limit OFFSET @offset`,
  );
  return {
    get: (ticketId) => byId.get(ticketId) as Ticket | undefined,
    search: ({ keyword, status, page: n, pageSize }) => {
      const params = { keyword: keyword ?? null, status: status ?? null };
      const { n: total } = count.get(params) as { n: number };
      const items = page.all({ ...params, limit: pageSize, offset: (n - 1) * pageSize });
      return { total, items: items as Ticket[] };
    },
    close: () => db.close(),
  };
}
