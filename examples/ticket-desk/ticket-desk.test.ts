import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { ScriptedChatModel } from "delve";
import { toolText } from "delve/mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chooseModel, runTicketDesk } from "./agent.js";
import { seedTicketDb } from "./database.js";
import { deskModel } from "./desk-model.js";

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "ticket-desk-test-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function freshDb(name: string): string {
  const dbPath = path.join(dir, name);
  seedTicketDb(dbPath);
  return dbPath;
}

describe("the seed task against the real ticket desk server", () => {
  it("takes three model calls: three parallel MCP calls, one write_file, one answer", async () => {
    const model = deskModel();
    const { messages, files, surface } = await runTicketDesk({ dbPath: freshDb("a.db"), model });

    expect(model.calls).toHaveLength(3);
    const [first, second] = messages.filter((m) => m.getType() === "ai") as any[];
    expect(first.tool_calls.map((c: any) => [c.name, c.args])).toEqual([
      ["get_ticket", { ticket_id: "T-1001" }],
      ["get_ticket", { ticket_id: "T-1003" }],
      ["search_tickets", { status: "unassigned" }],
    ]);
    expect(second.tool_calls.map((c: any) => c.name)).toEqual(["write_file"]);
    // The second call saw the three MCP results, all successful.
    const seen = model.calls[1]!.messages.filter((m) => m.getType() === "tool") as any[];
    expect(seen.map((m) => [m.name, m.status])).toEqual([
      ["get_ticket", "success"],
      ["get_ticket", "success"],
      ["search_tickets", "success"],
    ]);

    const brief = files["/brief.md"]!.content;
    expect(brief).toContain(
      "- T-1001: processing, logistics. express delayed two days (assignee: Li (support))",
    );
    expect(brief).toContain(
      "- T-1003: unassigned, inquiry. how is the warranty period calculated (assignee: none)",
    );
    expect(brief).toContain("## Unassigned tickets: 3");
    expect(brief).toContain("Waiting for an owner: T-1003, T-1005, T-1007.");
    expect(messages.at(-1)?.text).toMatch(/^The brief is in \/brief\.md/);

    // The surface report shows what the server costs per turn.
    const mcpTools = surface.tools.filter((t) => t.source === "mcp");
    expect(mcpTools.map((t) => [t.name, t.server])).toEqual([
      ["get_ticket", "ticket"],
      ["search_tickets", "ticket"],
    ]);
    expect(mcpTools.every((t) => t.chars > 0)).toBe(true);
    expect(surface.visible).toHaveLength(10);
  });

  it("a change in the database shows in the next brief", async () => {
    const dbPath = freshDb("b.db");
    const db = new Database(dbPath);
    db.prepare(
      "UPDATE tickets SET status = 'processing', assignee = 'Zhou (support)' WHERE ticket_id = 'T-1003'",
    ).run();
    db.prepare("DELETE FROM tickets WHERE ticket_id = 'T-1001'").run();
    db.prepare(
      "INSERT INTO tickets VALUES ('T-1010', 'unassigned', 'billing', 'invoice shows the wrong company name', NULL, '2026-05-08T09:00:00Z', '2026-05-08T09:00:00Z')",
    ).run();
    db.close();

    const model = deskModel();
    const { files, messages } = await runTicketDesk({ dbPath, model });
    const brief = files["/brief.md"]!.content;
    expect(model.calls).toHaveLength(3);
    expect(brief).toContain('- lookup failed: {"error":"not_found","message":"No ticket T-1001."');
    expect(brief).toContain(
      "- T-1003: processing, inquiry. how is the warranty period calculated (assignee: Zhou (support))",
    );
    expect(brief).toContain("Waiting for an owner: T-1005, T-1007, T-1010.");
    const notFound = messages.find((m: any) => m.status === "error");
    expect(JSON.parse(toolText(notFound)).hint).toContain("search_tickets");
  });
});

describe("the model the example runs on", () => {
  it("is a real provider when a key is set, the scripted desk model otherwise", () => {
    const all = () => true;
    expect(chooseModel({ OPENAI_API_KEY: "x" }, all)).toBe("openai:gpt-5.5");
    expect(chooseModel({ ANTHROPIC_API_KEY: "x" }, all)).toBe("anthropic:claude-sonnet-4-6");
    expect(typeof chooseModel({ OPENAI_API_KEY: "x" }, () => false)).not.toBe("string");
    expect(chooseModel({})).toBeInstanceOf(ScriptedChatModel);
  });
});
