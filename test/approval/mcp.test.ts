import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import { createDeepAgent } from "delve";
import { connectMcp, type McpConnection, toolText } from "delve/mcp";
import { ScriptedChatModel } from "delve/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ticketDeskStdio } from "../../examples/ticket-desk/agent.js";
import { seedTicketDb } from "../../examples/ticket-desk/database.js";
import { requestOf, resultFor, resume, thread, user } from "./helpers.js";

// The example ticket desk MCP server, for real, as a child process over stdio.
let dir: string;
let mcp: McpConnection;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "delve-approval-mcp-"));
  const dbPath = path.join(dir, "tickets.db");
  seedTicketDb(dbPath);
  mcp = await connectMcp({ desk: ticketDeskStdio(dbPath) });
});
afterAll(async () => {
  await mcp?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("approval of MCP tools", () => {
  it("an MCP tool is gated by name; an edit is checked against the server's schema", async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "search_tickets", args: { status: "processing" }, id: "m1" }] },
      "Listed.",
    ]);
    const agent = createDeepAgent({
      model,
      tools: mcp.tools,
      interruptOn: { search_tickets: { allowedDecisions: ["approve", "edit"] } },
      checkpointer: new MemorySaver(),
    });
    const paused = await agent.invoke(user("unassigned tickets?"), thread("mcp"));
    expect(requestOf(paused)!.actionRequests[0]).toMatchObject({
      name: "search_tickets",
      args: { status: "processing" },
    });
    const bad = await agent.invoke(
      resume([
        { type: "edit", editedAction: { name: "search_tickets", args: { status: "open" } } },
      ]),
      thread("mcp"),
    );
    expect(requestOf(bad)!.error).toMatch(
      /the edited arguments do not match the tool's schema: status: Instance does not match any of \["unassigned","processing","closed"\]\. Nothing ran/,
    );
    const out = await agent.invoke(
      resume([
        { type: "edit", editedAction: { name: "search_tickets", args: { status: "unassigned" } } },
      ]),
      thread("mcp"),
    );
    const text = toolText(resultFor(out, "m1")!);
    expect(text).toContain("T-1003");
    expect(text).not.toContain("T-1001");
  });
});
