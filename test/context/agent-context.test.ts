import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { MemorySaver } from "@langchain/langgraph";
import { createDeepAgent, FilesystemBackend, inspectSurface } from "delve";
import { ScriptedChatModel } from "delve/testing";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";

const root = mkdtempSync(join(tmpdir(), "delve-context-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const bigLines = Array.from({ length: 2_000 }, (_, i) => `row ${i + 1}: ${"x".repeat(45)}`);
const exportLog = tool(async () => bigLines.join("\n"), {
  name: "export_log",
  description: "Export the whole audit log as text.",
  schema: z.object({}),
});
const user = (content: string) => ({ messages: [{ role: "user" as const, content }] });
const toolResults = (out: { messages: unknown[] }) =>
  out.messages.filter((m) => ToolMessage.isInstance(m)) as ToolMessage[];

describe("context management is on by default", () => {
  it("a 100,000-character tool result is saved under /large_tool_results/ and the model sees a preview", async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "export_log", args: {}, id: "call_log" }] },
      "done",
    ]);
    const out = await createDeepAgent({ model, tools: [exportLog] }).invoke(user("export"));
    const saved = Object.keys(out.files).find((p) => p.startsWith("/large_tool_results/"));
    expect(saved).toBeDefined();
    expect(out.files[saved!].content).toBe(bigLines.join("\n"));
    const seen = String(model.calls[1]!.messages.at(-1)!.content);
    expect(seen.length).toBeLessThan(3_000);
    expect(seen).toContain(saved!);
    expect(seen).toContain("row 1:");
    expect(seen).toContain("row 2000:");
  });

  it("with a real-disk backend, evicted results stay in the thread's state and read_file reads them back", async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "export_log", args: {}, id: "call_disk" }] },
      (messages) => {
        const path = String(messages.at(-1)!.content)
          .match(/\/large_tool_results\/\S+/)![0]!
          .replace(/[.,)]$/, "");
        return {
          toolCalls: [{ name: "read_file", args: { file_path: path, offset: 1999, limit: 1 } }],
        };
      },
      "done",
    ]);
    const agent = createDeepAgent({
      model,
      tools: [exportLog],
      backend: new FilesystemBackend({ rootDir: root }),
    });
    const out = await agent.invoke(user("export"));
    const results = toolResults(out);
    expect(String(results.at(-1)!.content)).toContain("row 2000:");
    expect(existsSync(join(root, "large_tool_results"))).toBe(false);
    expect(Object.keys(out.files).some((p) => p.startsWith("/large_tool_results/"))).toBe(true);
  });

  it("toolTokenLimitBeforeEvict: null turns eviction off", async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "export_log", args: {} }] },
      "done",
    ]);
    const out = await createDeepAgent({
      model,
      tools: [exportLog],
      toolTokenLimitBeforeEvict: null,
    }).invoke(user("export"));
    expect(String(toolResults(out)[0]!.content)).toBe(bigLines.join("\n"));
  });

  it("memory files reach the system prompt, and an edit shows on the next call", async () => {
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          {
            name: "edit_file",
            args: {
              file_path: "/AGENTS.md",
              old_string: "Reply in English.",
              new_string: "Reply in French.",
            },
          },
        ],
      },
      "d'accord",
    ]);
    const agent = createDeepAgent({ model, memory: ["/AGENTS.md"] });
    await agent.invoke({
      ...user("remember French"),
      files: { "/AGENTS.md": "Reply in English." },
    });
    expect(model.calls[0]!.messages[0]!.text).toContain("Reply in English.");
    expect(model.calls[1]!.messages[0]!.text).toContain("Reply in French.");
  });

  it("skills are listed by name and description", async () => {
    const skill =
      "---\nname: refund-policy\ndescription: How to decide refunds over 100 EUR.\n---\nSteps...";
    const agent = createDeepAgent({ model: new ScriptedChatModel([]), skills: ["/skills/"] });
    const report = await inspectSurface(agent, {
      files: { "/skills/refund-policy/SKILL.md": skill },
    });
    expect(report.systemPrompt).toContain("refund-policy: How to decide refunds over 100 EUR.");
  });

  it("a long conversation is summarised at 85% of contextWindow; the transcript is kept in a file", async () => {
    const lookup = tool(async ({ n }: { n: number }) => `ticket ${n}: ${"detail ".repeat(100)}`, {
      name: "lookup",
      description: "Look up one ticket by number.",
      schema: z.object({ n: z.number() }),
    });
    const steps = Array.from({ length: 12 }, (_, i) => ({
      toolCalls: [{ name: "lookup", args: { n: i } }],
    }));
    const model = new ScriptedChatModel([
      ...steps,
      // The summarizer's own call(s), then the final answer.
      "Intent: review tickets. Artifacts: none. Next: finish.",
      "Intent: review tickets. Artifacts: none. Next: finish.",
      "Intent: review tickets. Artifacts: none. Next: finish.",
      "finished",
      "finished",
      "finished",
    ]);
    const agent = createDeepAgent({
      model,
      tools: [lookup],
      contextWindow: 3_000,
      checkpointer: new MemorySaver(),
    });
    const out = await agent.invoke(user("review twelve tickets"), {
      configurable: { thread_id: "long-1" },
    });
    expect(out.files["/conversation_history/long-1.md"]).toBeDefined();
    expect(out.files["/conversation_history/long-1.md"].content).toContain("ticket 0:");
    const lastRequest = model.calls.at(-1)!.messages;
    expect(lastRequest.length).toBeLessThan(20);
  });

  it("inspecting the surface calls no model even with summarization on", async () => {
    const model = new ScriptedChatModel([]);
    const report = await inspectSurface(createDeepAgent({ model, contextWindow: 1_000 }));
    expect(report.visible).toContain("read_file");
    expect(model.calls).toHaveLength(0);
  });
});
