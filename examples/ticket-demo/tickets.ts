import { tool } from "@langchain/core/tools";
import { z } from "zod";

/** A tiny in-memory ticket desk standing in for a real support system. */
export const TICKETS: Record<string, { status: string; category: string; summary: string }> = {
  "T-1001": { status: "processing", category: "logistics", summary: "express delayed two days" },
  "T-1002": { status: "resolved", category: "billing", summary: "duplicate charge refunded" },
  "T-1003": {
    status: "unassigned",
    category: "inquiry",
    summary: "how is the warranty period calculated",
  },
};

/** `get_ticket`: one verb, a constrained id, structured results and a hint on failure. */
export const getTicket = tool(
  async ({ ticket_id }: { ticket_id: string }) => {
    const ticket = TICKETS[ticket_id];
    if (!ticket) {
      return JSON.stringify({ ok: false, code: "not_found", hint: "ids look like T-1001" });
    }
    return JSON.stringify({ ok: true, id: ticket_id, ...ticket });
  },
  {
    name: "get_ticket",
    description:
      "Look up one support ticket by id: status, category, summary. Read-only. For several ids, call it once per id in parallel.",
    schema: z.object({
      ticket_id: z
        .string()
        .regex(/^T-\d{4}$/)
        .describe("e.g. T-1001"),
    }),
  },
);
