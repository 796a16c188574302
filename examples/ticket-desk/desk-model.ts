import type { BaseMessage } from "@langchain/core/messages";
import { ScriptedChatModel } from "delve";
import { toolText } from "delve/mcp";

/**
 * The offline stand-in for a real model on the seed task, in the seed's three calls: (1) one
 * message with three parallel MCP calls, (2) one write_file of /brief.md, (3) the answer.
 * Steps 2 and 3 are written from the tool results the model actually received, so a
 * change in the database shows in the brief, and a failed lookup shows as a failure.
 *
 * @example
 * const model = deskModel();
 * createDeepAgent({ model, tools: mcp.tools });
 */
export function deskModel(): ScriptedChatModel {
  return new ScriptedChatModel([
    {
      text: "Looking up both tickets and the unassigned queue.",
      toolCalls: [
        { name: "get_ticket", args: { ticket_id: "T-1001" } },
        { name: "get_ticket", args: { ticket_id: "T-1003" } },
        { name: "search_tickets", args: { status: "unassigned" } },
      ],
    },
    (messages) => ({
      toolCalls: [
        { name: "write_file", args: { file_path: "/brief.md", content: briefFrom(messages) } },
      ],
    }),
    (messages) => {
      const write = toolResults(messages).find((m) => m.name === "write_file");
      return write?.status === "error"
        ? `I could not save the brief: ${toolText(write)}`
        : "The brief is in /brief.md: both tickets and the unassigned queue, from the ticket desk's current data.";
    },
  ]);
}

/** Writes the brief in Markdown from the get_ticket and search_tickets results received. */
export function briefFrom(messages: BaseMessage[]): string {
  const results = toolResults(messages);
  const lines = ["# Ticket brief", "", "## Tickets asked about"];
  for (const m of results.filter((r) => r.name === "get_ticket")) {
    const t = parse(m);
    lines.push(
      m.status === "error" || !t?.ticket_id
        ? `- lookup failed: ${toolText(m)}`
        : `- ${t.ticket_id}: ${t.status}, ${t.category}. ${t.summary} (assignee: ${t.assignee ?? "none"})`,
    );
  }
  const search = results.find((r) => r.name === "search_tickets");
  const found = search && parse(search);
  if (!search || search.status === "error" || !Array.isArray(found?.items)) {
    lines.push(
      "",
      "## Unassigned tickets",
      "",
      `Search failed: ${search ? toolText(search) : "no result"}`,
    );
    return `${lines.join("\n")}\n`;
  }
  const shown = found.items.length < found.total ? ` (showing ${found.items.length})` : "";
  lines.push("", `## Unassigned tickets: ${found.total}${shown}`, "");
  if (found.items.length > 0) {
    lines.push("| Ticket | Category | Summary |", "|---|---|---|");
    for (const t of found.items) lines.push(`| ${t.ticket_id} | ${t.category} | ${t.summary} |`);
    lines.push("", `Waiting for an owner: ${found.items.map((t: any) => t.ticket_id).join(", ")}.`);
  } else {
    lines.push("Nothing is waiting for an owner.");
  }
  return `${lines.join("\n")}\n`;
}

function toolResults(messages: BaseMessage[]): any[] {
  return messages.filter((m) => m.getType() === "tool");
}

function parse(message: BaseMessage): any {
  try {
    return JSON.parse(toolText(message));
  } catch {
    return undefined;
  }
}
