import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tool } from "@langchain/core/tools";
import { createDeepAgent, FilesystemBackend, inspectSurface } from "delve";
import { ScriptedChatModel } from "delve/testing";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { withoutDelete } from "../helpers/backend-doubles.js";

const root = mkdtempSync(join(tmpdir(), "delve-harness-mounts-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const bigText = Array.from({ length: 2_000 }, (_, i) => `row ${i}: ${"y".repeat(45)}`).join("\n");
const exportLog = tool(async () => bigText, {
  name: "export_log",
  description: "Export the audit log.",
  schema: z.object({}),
});
const user = (content: string) => ({ messages: [{ role: "user" as const, content }] });
const lsOf = (out: { messages: any[] }) =>
  out.messages.filter((m) => m.name === "ls").map((m) => String(m.content));

describe("harness folders over a non-state backend", () => {
  it("appear in ls only once they hold a file", async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "ls", args: { path: "/" } }] },
      { toolCalls: [{ name: "export_log", args: {} }] },
      { toolCalls: [{ name: "ls", args: { path: "/" } }] },
      "done",
    ]);
    const agent = createDeepAgent({
      model,
      tools: [exportLog],
      backend: new FilesystemBackend({ rootDir: root }),
    });
    const [before, after] = lsOf(await agent.invoke(user("go")));
    expect(before).not.toContain("/large_tool_results/");
    expect(before).not.toContain("/conversation_history/");
    expect(after).toContain("/large_tool_results/");
    expect(after).not.toContain("/conversation_history/");
  });

  it("with eviction and summarization off nothing is mounted: paths reach the backend itself", async () => {
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          { name: "write_file", args: { file_path: "/large_tool_results/mine.md", content: "m" } },
        ],
      },
      "done",
    ]);
    const dir = mkdtempSync(join(root, "off-"));
    const agent = createDeepAgent({
      model,
      backend: new FilesystemBackend({ rootDir: dir }),
      toolTokenLimitBeforeEvict: null,
      summarization: false,
    });
    const out = await agent.invoke(user("go"));
    expect(Object.keys(out.files ?? {})).toEqual([]);
    const disk = new FilesystemBackend({ rootDir: dir });
    expect((await disk.read("/large_tool_results/mine.md")).lines).toEqual(["m"]);
  });

  it("never make delete visible on a backend that cannot delete", async () => {
    const agent = createDeepAgent({ model: new ScriptedChatModel([]), backend: withoutDelete() });
    const report = await inspectSurface(agent);
    expect(report.visible).not.toContain("delete");
    expect(report.hidden).toContainEqual({
      name: "delete",
      reason: "the backend cannot delete files",
    });
  });
});
