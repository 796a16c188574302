import { tool } from "@langchain/core/tools";
import Database from "better-sqlite3";
import { fail, ok } from "delve";
import { z } from "zod";
import { openTicketStore, TICKET_STATUSES, type TicketStatus } from "../database.js";

// Which status changes the desk allows: a closed ticket stays closed.
const NEXT: Record<TicketStatus, TicketStatus[]> = {
  unassigned: ["processing", "closed"],
  processing: ["unassigned", "closed"],
  closed: [],
};

const ticketId = z
  .string()
  .regex(/^T-\d{4}$/)
  .describe("The ticket id, e.g. T-1001.");

/**
 * The ticket desk's tools for the evals, on the same SQLite database as the MCP server:
 * `get_ticket` and `search_tickets` read; `update_ticket` changes a ticket's status and
 * declares `metadata: { mutates: true }`. Failures are `fail()` results.
 *
 * @example
 * const { tools, close } = deskTools("/tmp/tickets.db");
 */
export function deskTools(dbPath: string, descriptions: { get_ticket?: string } = {}) {
  const store = openTicketStore(dbPath);
  const db = new Database(dbPath);
  const setStatus = db.prepare(
    "UPDATE tickets SET status = @status, updated_at = @at WHERE ticket_id = @ticket_id",
  );
  const notFound = (id: string) =>
    fail({ code: "NOT_FOUND", message: `No ticket ${id}.`, hint: "Find ids with search_tickets." });

  const getTicket = tool(
    async ({ ticket_id }) => {
      const ticket = store.get(ticket_id);
      return ticket ? ok({ ...ticket }) : notFound(ticket_id);
    },
    {
      name: "get_ticket",
      description:
        descriptions.get_ticket ??
        "Look up one ticket by id: status, category, summary, assignee. Changes nothing.",
      schema: z.object({ ticket_id: ticketId }),
      metadata: { mutates: false },
    },
  );
  const searchTickets = tool(
    async ({ status, keyword }) => {
      const { total, items } = store.search({ status, keyword, page: 1, pageSize: 20 });
      return ok({
        total,
        items: items.map(({ ticket_id, status: s, summary }) => ({
          ticket_id,
          status: s,
          summary,
        })),
      });
    },
    {
      name: "search_tickets",
      description:
        "Find tickets by status and/or keyword (first 20, with the total). Changes nothing.",
      schema: z.object({
        status: z.enum(TICKET_STATUSES).optional(),
        keyword: z.string().min(1).optional(),
      }),
      metadata: { mutates: false },
    },
  );
  const updateTicket = tool(
    async ({ ticket_id, status }) => {
      const ticket = store.get(ticket_id);
      if (!ticket) return notFound(ticket_id);
      if (!NEXT[ticket.status].includes(status)) {
        return fail({
          code: "INVALID_TRANSITION",
          message: `${ticket_id} is ${ticket.status} and cannot become ${status}.`,
          hint:
            ticket.status === "closed"
              ? "A closed ticket stays closed: open a new one."
              : undefined,
        });
      }
      setStatus.run({ ticket_id, status, at: "2026-05-08T09:00:00Z" });
      return ok({ ticket_id, status });
    },
    {
      name: "update_ticket",
      description:
        "Change a ticket's status (unassigned, processing, closed). Saved at once; a closed ticket cannot change.",
      schema: z.object({ ticket_id: ticketId, status: z.enum(TICKET_STATUSES) }),
      metadata: { mutates: true },
    },
  );
  return {
    tools: [getTicket, searchTickets, updateTicket],
    close: () => {
      store.close();
      db.close();
    },
  };
}
