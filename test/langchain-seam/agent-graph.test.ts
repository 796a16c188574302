import { tool } from "@langchain/core/tools";
import { InMemoryCache } from "@langchain/langgraph-checkpoint";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  cacheModelCalls,
  MODEL_NODE,
  registeredTools,
  TOOLS_NODE,
} from "../../src/langchain-seam/agent-graph.js";
import { ScriptedChatModel } from "../../src/models/scripted-model.js";

const lookup = tool(async () => "found", {
  name: "lookup",
  description: "Looks a thing up.",
  schema: z.object({ q: z.string() }),
});

describe("langchain's compiled agent graph, as Delve reads it", () => {
  it("exposes its ToolNode's tools at graph.nodes.tools.bound.tools", () => {
    const agent = createAgent({ model: new ScriptedChatModel(["done"]), tools: [lookup] });
    const nodes = (agent as any).graph?.nodes;
    expect(
      nodes,
      "langchain's agent exposes its compiled graph's nodes at agent.graph.nodes",
    ).toBeDefined();
    expect(
      nodes[TOOLS_NODE],
      `langchain's compiled agent has its tool node at graph.nodes.${TOOLS_NODE}`,
    ).toBeDefined();
    expect(
      nodes[TOOLS_NODE].bound?.tools,
      "the tool node's PregelNode wraps the ToolNode in `bound`, which lists the tools in `tools`",
    ).toBeInstanceOf(Array);
    expect(registeredTools(agent).map((t) => t.name)).toEqual(["lookup"]);
  });

  it("has no tool node without tools, and registeredTools says so with an empty list", () => {
    const agent = createAgent({ model: new ScriptedChatModel(["done"]), tools: [] });
    expect(registeredTools(agent)).toEqual([]);
  });

  it(`calls the model in the node graph.nodes.${MODEL_NODE}, whose cachePolicy a graph cache honours`, async () => {
    const model = new ScriptedChatModel(["first", "second"]);
    const agent = createAgent({ model, tools: [] });
    expect(
      (agent as any).graph.nodes[MODEL_NODE],
      `langchain's compiled agent calls the model in graph.nodes.${MODEL_NODE} (AGENT_NODE_NAME)`,
    ).toBeDefined();
    const cache = new InMemoryCache();
    expect(cacheModelCalls(agent, cache, { keyFunc: () => "same" })).toBe(true);
    const ask = () => agent.invoke({ messages: [{ role: "user", content: "hi" }] });
    const one = await ask();
    const two = await ask();
    expect(
      two.messages.at(-1)?.content,
      "a PregelNode's cachePolicy and the graph's `cache`, set after compile, serve the node's writes from the cache",
    ).toBe(one.messages.at(-1)?.content);
  });
});
