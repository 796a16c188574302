// The samples that run offline are run, and what their comments promise is checked.
import { inspectSurface, LazyChatModel } from "delve";
import { ScriptedChatModel } from "delve/testing";
import { afterEach, describe, expect, it, vi } from "vitest";

afterEach(() => vi.restoreAllMocks());

describe("docs/examples that need no model", () => {
  it("quick-start.ts: 9 tools, ~3,650 characters, and the brief it asks for", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    // The provider model is replaced by a script; everything else runs as written.
    const scripted = new ScriptedChatModel([
      { toolCalls: [{ name: "get_ticket", args: { ticket_id: "T-1001" } }] },
      (messages) => ({
        toolCalls: [
          { name: "write_file", args: { file_path: "/brief.md", content: messages.at(-1)!.text } },
        ],
      }),
      "Written to /brief.md.",
    ]);
    vi.spyOn(LazyChatModel.prototype, "resolve").mockResolvedValue(scripted as any);
    await import("../../docs/examples/quick-start.js");
    const [tools, chars] = log.mock.calls[0]!;
    expect(tools).toBe(9);
    expect(Math.abs(Number(chars) - 3650)).toBeLessThan(50);
    expect(JSON.parse(String(log.mock.calls[1]![0]))).toMatchObject({ id: "T-1001" });
  });

  it("filesystem-whitelist.ts: the model sees get_order, grep, ls, read_file, task", async () => {
    const { agent } = await import("../../docs/examples/filesystem-whitelist.js");
    const report = await inspectSurface(agent);
    expect([...report.visible].sort()).toEqual(["get_order", "grep", "ls", "read_file", "task"]);
  });

  it("surface.ts: the prompt is built from the files given to inspectSurface", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    await import("../../docs/examples/surface.js");
    const [visible, chars, systemPrompt] = log.mock.calls[0]!;
    expect(visible).toHaveLength(8); // no user tool: the eight visible built-ins
    expect(chars).toBeGreaterThan(0);
    expect(systemPrompt).toContain("Cite file paths.");
  });

  it('permissions-decide.ts: reading secrets/.env is "deny"', async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    await import("../../docs/examples/permissions-decide.js");
    expect(log).toHaveBeenCalledWith("deny");
  });
});
