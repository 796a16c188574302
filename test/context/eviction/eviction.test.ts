import { type BaseMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { Command, MemorySaver } from "@langchain/langgraph";
import type { ExecuteResult, WriteResult } from "delve";
import { createDeepAgent, InMemoryBackend } from "delve";
import { ScriptedChatModel } from "delve/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  EVICTED_RESULTS_KEY,
  type EvictionOptions,
  evictedPath,
  evictionMiddleware,
} from "../../../src/context/eviction/middleware.js";

const user = (content: string) => ({ messages: [{ role: "user" as const, content }] });
const thread = (id: string) => ({ configurable: { thread_id: id } });

// 2,000 numbered lines of 50 characters: 100,000 characters, about 33k tokens by the offline estimate.
const BIG = Array.from({ length: 2000 }, (_, i) =>
  `row ${String(i + 1).padStart(4, "0")}: ticket open, priority high, owner ops`.padEnd(49, "."),
)
  .join("\n")
  .concat("\n");

const bigTool = (name = "search_tickets", text = BIG) =>
  tool(async () => text, { name, description: "Search tickets.", schema: z.object({}) });

/** Where a result of `text` from call `id` is saved. */
const saved = (id: string, text = BIG) => evictedPath(id, text);

const lastToolMessage = (messages: BaseMessage[]) =>
  messages.filter((m) => ToolMessage.isInstance(m)).at(-1) as ToolMessage;

/** One run where the model calls `tool` once (as call `id`), then answers; what the model saw next. */
async function callOnce(t: { name: string }, options: EvictionOptions = {}, id = "call_1") {
  const model = new ScriptedChatModel([{ toolCalls: [{ name: t.name, args: {}, id }] }, "done"]);
  const agent = createDeepAgent({
    model,
    tools: [t as any],
    middleware: [evictionMiddleware(options)],
  });
  const out = await agent.invoke(user("go"));
  return { out, seen: lastToolMessage(model.calls[1]!.messages) };
}

describe("eviction of large tool results", () => {
  it("a 100,000-character result is saved under /large_tool_results/ and the model sees a head-and-tail preview", async () => {
    expect(BIG.length).toBe(100_000);
    const { out, seen } = await callOnce(
      bigTool(),
      { mentions: (t) => t === "read_file" },
      "call_big",
    );
    expect(out.files[saved("call_big")].content).toBe(BIG);
    const text = seen.text;
    expect(text.length).toBeLessThan(2_000);
    expect(text).toContain(saved("call_big"));
    expect(text).toContain("   1  row 0001: ticket open");
    expect(text).toContain("   5  row 0005:");
    expect(text).toContain("1996  row 1996:");
    expect(text).toContain("2000  row 2000:");
    expect(text).toContain("[1990 lines omitted]");
    expect(text).not.toContain("row 0006:");
    expect(text).toContain("read_file");
    expect(seen.tool_call_id).toBe("call_big");
    expect(seen.name).toBe("search_tickets");
  });

  it("the notice names no tool unless mentions says the model can see it", async () => {
    const text = (await callOnce(bigTool())).seen.text;
    expect(text).toContain(saved("call_1"));
    expect(text).not.toMatch(/\b(read_file|grep|ls|glob)\b/);
  });

  it("a long tool call id with odd characters gets a short hashed file name and is still saved", async () => {
    const id = `toolu/${"x".repeat(400)}:../..`;
    const { out, seen } = await callOnce(bigTool(), {}, id);
    const paths = Object.keys(out.files);
    expect(paths).toHaveLength(1);
    const [path] = paths as [string];
    expect(path).toMatch(/^\/large_tool_results\/toolu_x+-[0-9a-f]{12}-[0-9a-f]{12}$/);
    expect(path.length).toBeLessThan(100);
    expect(out.files[path].content).toBe(BIG);
    expect(seen.text).toContain(path);
  });

  it("content-block results: the text blocks are evicted and the image block is kept", async () => {
    const image = { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" };
    const chart = tool(
      async (_input, config: any) =>
        new ToolMessage({
          content: [
            { type: "text", text: BIG.slice(0, 50_000) },
            image,
            { type: "text", text: BIG.slice(50_000) },
          ] as any,
          tool_call_id: config.toolCall.id,
          name: "chart",
        }),
      { name: "chart", description: "Chart tickets.", schema: z.object({}) },
    );
    const { out, seen } = await callOnce(chart, {}, "call_chart");

    const joined = `${BIG.slice(0, 50_000)}\n${BIG.slice(50_000)}`;
    expect(out.files[saved("call_chart", joined)].content).toBe(joined);
    const content = seen.content as any[];
    expect(content).toHaveLength(2);
    expect(content[0].type).toBe("text");
    expect(content[0].text).toContain(saved("call_chart", joined));
    expect(content[1]).toEqual(image);
  });

  it("a failing save never loses the result silently: it is cut with a note saying why", async () => {
    class FullDisk extends InMemoryBackend {
      override async write(): Promise<WriteResult> {
        return { error: { code: "io", message: "disk full" } };
      }
    }
    const { out, seen } = await callOnce(bigTool(), {
      backend: new FullDisk(),
      toolTokenLimitBeforeEvict: 2_000,
    });
    const text = seen.text;
    expect(text).toMatch(/could not be saved to a file \(disk full\)/);
    expect(text).toMatch(/truncated/);
    expect(text).toContain("row 0001:");
    expect(text).toContain("row 2000:");
    expect(text).not.toContain("row 1000:");
    expect(text.length).toBeLessThan(12_000);
    expect(out.files).toEqual({});
  });

  it("a result larger than the per-thread cap is cut with a note instead of saved", async () => {
    const { out, seen } = await callOnce(bigTool(), { maxEvictedBytesPerThread: 50_000 });
    expect(seen.text).toMatch(/could not be saved to a file \(it is 98 KB, more than the 49 KB/);
    expect(out.files).toEqual({});
  });

  it("file tools are exempt; execute and user tools are not", async () => {
    class BigShell extends InMemoryBackend {
      async execute(): Promise<ExecuteResult> {
        return { output: BIG.slice(0, 20_000), exitCode: 0, truncated: false };
      }
    }
    const backend = new BigShell();
    await backend.write("/kb/big.md", BIG.slice(0, 20_000));
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          { name: "read_file", args: { file_path: "/kb/big.md" }, id: "call_read" },
          { name: "grep", args: { pattern: "row", output_mode: "content" }, id: "call_grep" },
          { name: "execute", args: { command: "cat /kb/big.md" }, id: "call_exec" },
          { name: "search_tickets", args: {}, id: "call_user" },
        ],
      },
      "done",
    ]);
    const agent = createDeepAgent({
      model,
      backend,
      tools: [bigTool("search_tickets", BIG.slice(0, 20_000))],
      middleware: [evictionMiddleware({ toolTokenLimitBeforeEvict: 1_000 })],
    });
    await agent.invoke(user("go"));
    const results = new Map(
      model.calls[1]!.messages.filter((m) => ToolMessage.isInstance(m)).map((m) => [
        (m as ToolMessage).tool_call_id,
        m.text,
      ]),
    );
    expect(results.get("call_read")).toContain("  6  row 0006:");
    expect(results.get("call_grep")).toContain("row 0300:");
    expect(results.get("call_exec")).toMatch(/\/large_tool_results\/call_exec-[0-9a-f]{12}/);
    expect(results.get("call_user")).toMatch(/\/large_tool_results\/call_user-[0-9a-f]{12}/);
  });

  it("the per-thread cap deletes the oldest evicted results first", async () => {
    const call = (id: string) => ({ toolCalls: [{ name: "search_tickets", args: {}, id }] });
    const model = new ScriptedChatModel([
      call("call_a"),
      call("call_b"),
      "first run done",
      call("call_c"),
      "second run done",
    ]);
    const agent = createDeepAgent({
      model,
      tools: [bigTool()],
      checkpointer: new MemorySaver(),
      middleware: [evictionMiddleware({ maxEvictedBytesPerThread: 250_000 })],
    });
    const first = await agent.invoke(user("go"), thread("cap"));
    expect(Object.keys(first.files).sort()).toEqual([saved("call_a"), saved("call_b")]);
    const second = await agent.invoke(user("more"), thread("cap"));
    expect(Object.keys(second.files).sort()).toEqual([saved("call_b"), saved("call_c")]);
    const state: any = await agent.getState(thread("cap"));
    expect(state.values[EVICTED_RESULTS_KEY]).toEqual([
      { path: saved("call_b"), bytes: 100_000 },
      { path: saved("call_c"), bytes: 100_000 },
    ]);
  });

  it("a task result returned inside a Command is evicted and the rest of the update is kept", async () => {
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          {
            name: "task",
            args: { description: "collect tickets", subagent_type: "general-purpose" },
            id: "call_task",
          },
        ],
      },
      { toolCalls: [{ name: "write_file", args: { file_path: "/notes.md", content: "n" } }] },
      BIG,
      "done",
    ]);
    const agent = createDeepAgent({ model, middleware: [evictionMiddleware()] });
    const out = await agent.invoke(user("delegate"));
    expect(out.files["/notes.md"].content).toBe("n");
    // task hands back the subagent's last text, trimmed.
    expect(out.files[saved("call_task", BIG.trim())].content).toBe(BIG.trim());
    const seen = lastToolMessage(model.calls[3]!.messages);
    expect(seen.name).toBe("task");
    expect(seen.text).toContain(saved("call_task", BIG.trim()));
    expect(seen.text.length).toBeLessThan(2_000);
  });

  it("a Command returned by any tool keeps its other keys when its tool message is evicted", async () => {
    const handoff = tool(
      async (_input, config: any) =>
        new Command({
          update: {
            files: { "/handoff.md": "kept" },
            messages: [
              new ToolMessage({ content: BIG, tool_call_id: config.toolCall.id, name: "handoff" }),
            ],
          },
        }),
      { name: "handoff", description: "Hand off.", schema: z.object({}) },
    );
    const { out, seen } = await callOnce(handoff, {}, "call_h");
    expect(out.files["/handoff.md"].content).toBe("kept");
    expect(out.files[saved("call_h")].content).toBe(BIG);
    expect(seen.text).toContain(saved("call_h"));
  });

  it("small results and a null limit leave results untouched", async () => {
    const { out, seen } = await callOnce(bigTool(), { toolTokenLimitBeforeEvict: null });
    expect(seen.text).toBe(BIG);
    expect(out.files).toEqual({});
  });

  it("invalid options are construction errors", () => {
    expect(() => evictionMiddleware({ toolTokenLimitBeforeEvict: -5 })).toThrow(
      /toolTokenLimitBeforeEvict/,
    );
    expect(() => evictionMiddleware({ maxEvictedBytesPerThread: 0 })).toThrow(
      /maxEvictedBytesPerThread/,
    );
  });
});
