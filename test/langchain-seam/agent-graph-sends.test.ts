import { HumanMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { MemorySaver, Send } from "@langchain/langgraph";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  agentGraph,
  hasToolRouters,
  reapplyOnWithConfig,
  wrapToolNodeInput,
  wrapToolRouters,
} from "../../src/langchain-seam/agent-graph-sends.js";
import { ScriptedChatModel } from "../../src/models/scripted-model.js";

const call = { id: "c1", name: "lookup", args: { q: "x" } };

function agentWith(seen: { stateMessages?: number }) {
  const lookup = tool(
    async (_input: { q: string }, runtime: any) => {
      seen.stateMessages = runtime?.state?.messages?.length;
      return "found";
    },
    { name: "lookup", description: "Looks a thing up.", schema: z.object({ q: z.string() }) },
  );
  return createAgent({
    model: new ScriptedChatModel([{ toolCalls: [call] }, "done"]),
    tools: [lookup],
    checkpointer: new MemorySaver(),
  });
}

describe("langchain's tool-call routing and tool node, as Delve patches them", () => {
  it("routes tool calls through the builder's branches, whose path is called at run time", async () => {
    const agent = agentWith({});
    expect(
      hasToolRouters(agent),
      "langchain's agent graph keeps its conditional branches in graph.builder.branches",
    ).toBe(true);
    const routed: unknown[] = [];
    wrapToolRouters(agent, (result) => {
      routed.push(...(Array.isArray(result) ? result : [result]));
      return result;
    });
    await agent.invoke(
      { messages: [new HumanMessage("go")] },
      { configurable: { thread_id: "r" } },
    );
    const sends = routed.filter((r): r is Send => r instanceof Send);
    expect(
      sends.map((s) => s.node),
      "a branch's path, replaced after compile, is what the compiled graph calls to route",
    ).toEqual(["tools"]);
    expect(
      Object.keys(sends[0]!.args).sort(),
      "langchain sends each tool call as Send('tools', { ...state, lg_tool_call })",
    ).toEqual(expect.arrayContaining(["lg_tool_call", "messages"]));
  });

  it("runs the tool node through run(input, config), where __pregel_read gives the state", async () => {
    const seen: { stateMessages?: number } = {};
    const agent = agentWith(seen);
    let read: Record<string, unknown> | undefined;
    const status = wrapToolNodeInput(agent, (input, readState) => {
      read = readState();
      // One message fewer than the state: what tools see tells which input they got.
      const messages = (read!.messages as unknown[]).slice(0, 1);
      return { ...read, messages, lg_tool_call: input.lg_tool_call };
    });
    expect(
      status,
      "the tool node is graph.nodes.tools.bound with run(), and graph.streamChannels lists the state",
    ).toBe("wrapped");
    await agent.invoke(
      { messages: [new HumanMessage("go")] },
      { configurable: { thread_id: "t" } },
    );
    expect(
      Array.isArray(read?.messages),
      "configurable.__pregel_read(streamChannels, false) reads the state inside the tool task",
    ).toBe(true);
    expect(
      seen.stateMessages,
      "tools see __pregel_scratchpad.currentTaskInput as runtime.state",
    ).toBe(1);
    expect((read!.messages as unknown[]).length).toBeGreaterThan(1);
  });

  it("says there is no tool node for an agent without tools", () => {
    const agent = createAgent({ model: new ScriptedChatModel(["done"]), tools: [] });
    expect(wrapToolNodeInput(agent, (input) => input)).toBe("no tool node");
  });

  it("withConfig builds a new agent graph, which reapplyOnWithConfig patches too", () => {
    const agent = agentWith({});
    const patched: unknown[] = [];
    const mark = <T>(a: T): T => {
      patched.push(agentGraph(a));
      return a;
    };
    reapplyOnWithConfig(agent, mark);
    const configured = agent.withConfig({ tags: ["x"] });
    expect(
      agentGraph(configured),
      "langchain's agent.withConfig returns an agent with its own compiled graph",
    ).not.toBe(agentGraph(agent));
    expect(patched).toEqual([agentGraph(configured)]);
  });
});
