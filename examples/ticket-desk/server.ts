import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { TICKET_STATUSES, type TicketStore } from "./database.js";

const READ_ONLY = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;
const MAX_PAGE_SIZE = 20;

/**
 * The ticket desk as an MCP server: two read-only tools designed the way seed 004 asks
 * (one verb each, descriptions that say when not to use them, the status set as an enum,
 * a bounded page size, paging with `total`, a structured `not_found` error with a hint),
 * plus a guide resource and a brief prompt. The entry points (`server-stdio.ts`,
 * `server-http.ts`) connect it to a transport.
 *
 * @example
 * await createTicketServer(openTicketStore(dbPath)).connect(new StdioServerTransport());
 */
export function createTicketServer(store: TicketStore): McpServer {
  const server = new McpServer({ name: "ticket-desk", version: "1.0.0" });

  server.registerTool(
    "get_ticket",
    {
      title: "Get ticket",
      description: [
        "Look up one support ticket by its id and return all of its fields.",
        "Use when you know the id (T- and four digits, e.g. T-1001).",
        "Do not use it to find tickets by topic or status: use search_tickets.",
        "Returns JSON {ticket_id, status, category, summary, assignee, created_at, updated_at}; assignee is null while unassigned.",
        'An unknown id returns an error {"error":"not_found","message","hint"}.',
      ].join("\n"),
      inputSchema: {
        ticket_id: z
          .string()
          .regex(/^T-\d{4}$/)
          .describe("The ticket id: T- and four digits, e.g. T-1001."),
      },
      annotations: { title: "Get ticket", ...READ_ONLY },
    },
    async ({ ticket_id }) => {
      const ticket = store.get(ticket_id);
      if (!ticket) {
        return json(
          {
            error: "not_found",
            message: `No ticket ${ticket_id}.`,
            hint: "Check the id, or find the ticket with search_tickets (by keyword or status).",
          },
          true,
        );
      }
      return json(ticket);
    },
  );

  server.registerTool(
    "search_tickets",
    {
      title: "Search tickets",
      description: [
        "Find support tickets by keyword and/or status; returns one page of short summaries.",
        "Use when you do not know the id, e.g. all unassigned tickets, or tickets about refunds.",
        "Do not use it to read one ticket in full: use get_ticket with the id.",
        "keyword matches the summary and the category, case-insensitive. Without keyword and status it lists every ticket.",
        "Returns JSON {total, page, page_size, items: [{ticket_id, status, category, summary}]}; total counts every match, so ask for the next page while page * page_size < total.",
      ].join("\n"),
      inputSchema: {
        keyword: z
          .string()
          .min(1)
          .max(100)
          .optional()
          .describe("Words to look for in the summary or category, e.g. refund."),
        status: z
          .enum(TICKET_STATUSES)
          .optional()
          .describe(
            "Only tickets in this state: unassigned (nobody owns it yet), processing, closed.",
          ),
        page: z.number().int().min(1).max(1000).default(1).describe("Page number, from 1."),
        page_size: z
          .number()
          .int()
          .min(1)
          .max(MAX_PAGE_SIZE)
          .default(10)
          .describe(`Tickets per page, 1 to ${MAX_PAGE_SIZE}.`),
      },
      annotations: { title: "Search tickets", ...READ_ONLY },
    },
    async ({ keyword, status, page, page_size }) => {
      const { total, items } = store.search({ keyword, status, page, pageSize: page_size });
      return json({
        total,
        page,
        page_size,
        items: items.map(({ ticket_id, status, category, summary }) => ({
          ticket_id,
          status,
          category,
          summary,
        })),
      });
    },
  );

  server.registerResource(
    "guide",
    "ticket-desk://guide",
    {
      title: "Ticket desk guide",
      description: "What the ticket statuses and fields mean.",
      mimeType: "text/markdown",
    },
    async (uri) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: "text/markdown",
          text: [
            "# Ticket desk",
            "- unassigned: nobody owns the ticket yet; it needs triage.",
            "- processing: an agent (assignee) is working on it.",
            "- closed: resolved; no action needed.",
          ].join("\n"),
        },
      ],
    }),
  );

  server.registerPrompt(
    "status_brief",
    {
      title: "Status brief",
      description: "Ask for a brief on every ticket in one status.",
      argsSchema: { status: z.enum(TICKET_STATUSES) },
    },
    ({ status }) => ({
      messages: [
        {
          role: "user",
          content: {
            type: "text",
            text: `Search all ${status} tickets and write a short brief to /brief.md.`,
          },
        },
      ],
    }),
  );

  return server;
}

function json(value: unknown, isError = false) {
  return {
    content: [{ type: "text" as const, text: JSON.stringify(value) }],
    ...(isError ? { isError: true } : {}),
  };
}
