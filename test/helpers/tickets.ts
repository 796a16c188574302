import { tool } from "@langchain/core/tools";
import { z } from "zod";

export const TICKETS: Record<string, { status: string; category: string; summary: string }> = {
  "T-1001": { status: "processing", category: "logistics", summary: "express delayed two days" },
  "T-1003": {
    status: "unassigned",
    category: "inquiry",
    summary: "how is the warranty period calculated",
  },
};

/** The seed's business tool: look up one ticket by id. */
export function getTicketTool() {
  return tool(
    async ({ ticket_id }: { ticket_id: string }) => {
      const ticket = TICKETS[ticket_id];
      return ticket
        ? JSON.stringify({ ok: true, id: ticket_id, ...ticket })
        : JSON.stringify({ ok: false, code: "not_found", hint: "ids look like T-1001" });
    },
    {
      name: "get_ticket",
      description: "Look up one support ticket by id (e.g. T-1001): status, category, summary.",
      schema: z.object({ ticket_id: z.string().describe("Ticket id, e.g. T-1001") }),
    },
  );
}
