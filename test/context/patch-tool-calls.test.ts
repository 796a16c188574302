import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { MemorySaver } from "@langchain/langgraph";
import { ScriptedChatModel } from "delve/testing";
import { createAgent, createMiddleware } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  CANCELLED_TOOL_CALL_TEXT,
  patchToolCalls,
  patchToolCallsMiddleware,
} from "../../src/context/patch-tool-calls.js";

const thread = (id: string) => ({ configurable: { thread_id: id } });
const ask = (content: string) => ({ messages: [new HumanMessage(content)] });
const kinds = (messages: BaseMessage[]) => messages.map((m) => m.getType());

// With any wrapToolCall layer, a tool's exception ends the run (no catch-all here).
const passThrough = createMiddleware({ name: "PassThrough", wrapToolCall: (r, h) => h(r) });

const aiCalling = (...ids: string[]) =>
  new AIMessage({
    id: `ai-${ids.join("-")}`,
    content: "",
    tool_calls: ids.map((id) => ({ id, name: "lookup", args: {}, type: "tool_call" as const })),
  });
const result = (id: string) =>
  new ToolMessage({ id: `tm-${id}`, content: "ok", tool_call_id: id, name: "lookup" });

describe("dangling tool calls", () => {
  it("after a run that crashed in a tool, the next model call sees a cancellation result for the dangling call", async () => {
    const crash = tool(
      async () => {
        throw new Error("CRM connection reset");
      },
      { name: "update_ticket", description: "Update a ticket.", schema: z.object({}) },
    );
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "update_ticket", args: {}, id: "call_dangling" }] },
      "Retrying later.",
    ]);
    const agent = createAgent({
      model,
      tools: [crash],
      checkpointer: new MemorySaver(),
      middleware: [passThrough, patchToolCallsMiddleware()],
    });
    await expect(agent.invoke(ask("update T-1"), thread("crash"))).rejects.toThrow(
      /connection reset/,
    );

    const out = await agent.invoke(ask("are you there?"), thread("crash"));
    const request = model.calls[1]!.messages;
    expect(kinds(request)).toEqual(["human", "ai", "tool", "human"]);
    const patched = request[2] as ToolMessage;
    expect(patched.tool_call_id).toBe("call_dangling");
    expect(patched.status).toBe("error");
    expect(patched.text).toBe(CANCELLED_TOOL_CALL_TEXT);
    expect(patched.text).toMatch(/cancelled before it finished.*Retry/);
    // The repair is saved in the thread, not redone on every call.
    expect(kinds(out.messages)).toEqual(["human", "ai", "tool", "human", "ai"]);
  });

  it("after a run aborted by its signal mid-tool, the next run starts from a sound history", async () => {
    const slow = tool(
      (_input, config: any) =>
        new Promise<string>((resolve, reject) => {
          const timer = setTimeout(() => resolve("late"), 2_000);
          config.signal?.addEventListener("abort", () => {
            clearTimeout(timer);
            reject(new Error("aborted"));
          });
        }),
      { name: "slow_report", description: "Build a report.", schema: z.object({}) },
    );
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "slow_report", args: {}, id: "call_slow" }] },
      "Starting over.",
    ]);
    const agent = createAgent({
      model,
      tools: [slow],
      checkpointer: new MemorySaver(),
      middleware: [patchToolCallsMiddleware()],
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await expect(
      agent.invoke(ask("build the report"), { ...thread("abort"), signal: controller.signal }),
    ).rejects.toThrow();

    await agent.invoke(ask("never mind"), thread("abort"));
    const request = model.calls[1]!.messages;
    expect(kinds(request)).toEqual(["human", "ai", "tool", "human"]);
    expect((request[2] as ToolMessage).tool_call_id).toBe("call_slow");
    expect((request[2] as ToolMessage).status).toBe("error");
  });
});

describe("patchToolCalls", () => {
  it("a sound history is left alone", () => {
    expect(patchToolCalls([new HumanMessage("hi"), aiCalling("a"), result("a")])).toBeUndefined();
  });

  it("a cancellation goes after the AI message's other results, before the next message", () => {
    const patched = patchToolCalls([
      new HumanMessage("hi"),
      aiCalling("a", "b"),
      result("a"),
      new HumanMessage("next"),
    ])!;
    expect(kinds(patched)).toEqual(["human", "ai", "tool", "tool", "human"]);
    expect((patched[3] as ToolMessage).tool_call_id).toBe("b");
    expect((patched[3] as ToolMessage).name).toBe("lookup");
  });

  it("a dangling call in the last AI message is patched too", () => {
    const patched = patchToolCalls([new HumanMessage("hi"), aiCalling("a")])!;
    expect(kinds(patched)).toEqual(["human", "ai", "tool"]);
  });

  it("a tool message answering no earlier call is removed", () => {
    const patched = patchToolCalls([
      new HumanMessage("hi"),
      result("ghost"),
      aiCalling("a"),
      result("a"),
    ])!;
    expect(kinds(patched)).toEqual(["human", "ai", "tool"]);
    expect((patched[2] as ToolMessage).tool_call_id).toBe("a");
  });
});
