import { HumanMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { createDeepAgent, readBudget } from "delve";
import { ScriptedChatModel } from "delve/testing";
import { createMiddleware } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { hookState, withAgentLevelState } from "../../src/agent/hook-state.js";
import { usageMiddleware } from "../../src/run/usage.js";
import { generatedTools } from "../helpers/many-tools.js";
import { getTicketTool } from "../helpers/tickets.js";

// LangChain's model node builds a zod schema from each wrapModelCall layer's stateSchema and
// parses the whole state with it, per layer, on every model call (every file of `files`
// each time). Delve's layers declare their channels on the agent instead.

const compiledMiddleware = (agent: unknown) =>
  (agent as { options: { middleware: any[] } }).options.middleware;

function fullAgent() {
  return createDeepAgent({
    model: new ScriptedChatModel(["done"]),
    tools: [getTicketTool(), ...generatedTools(60)],
    deferTools: true,
    middleware: [usageMiddleware()],
    checkpointer: new MemorySaver(),
  });
}

describe("model-call layers and the agent state", () => {
  it("no Delve layer with a wrapModelCall hook hands LangChain a state schema", () => {
    const layers = compiledMiddleware(fullAgent());
    const withHook = layers.filter((m) => typeof m.wrapModelCall === "function");
    expect(withHook.map((m) => m.name)).toEqual(
      expect.arrayContaining([
        "FilesystemMiddleware",
        "SubAgentMiddleware",
        "LimitsMiddleware",
        "SummarizationMiddleware",
        "ToolDeferralMiddleware",
        "UsageMiddleware",
      ]),
    );
    for (const layer of withHook)
      expect([layer.name, layer.stateSchema]).toEqual([layer.name, undefined]);
  });

  it("their channels stay on the agent's state", () => {
    const channels = Object.keys((fullAgent() as any).graph.channels);
    expect(channels).toEqual(
      expect.arrayContaining(["files", "budget", "delveTaskWrites", "delveLoadedTools", "usage"]),
    );
  });

  it("the counts a hook keeps in state survive a resume (read from the node's input)", async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "get_ticket", args: { ticket_id: "T-1001" } }] },
      "first",
      "second",
    ]);
    const agent = createDeepAgent({
      model,
      tools: [getTicketTool()],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "resume" } };
    await agent.invoke({ messages: [new HumanMessage("one")] }, config);
    const out = await agent.invoke({ messages: [new HumanMessage("two")] }, config);
    expect(readBudget(out)).toMatchObject({ modelCalls: 3, toolCalls: 1 });
  });

  it("a user's middleware keeps its own state schema (its hook reads request.state)", () => {
    const mine = createMiddleware({
      name: "Mine",
      stateSchema: z.object({ note: z.string().optional() }),
      wrapModelCall: (request, handler) => handler(request),
    });
    const agent = createDeepAgent({ model: new ScriptedChatModel(["x"]), middleware: [mine] });
    expect(compiledMiddleware(agent).find((m) => m.name === "Mine")?.stateSchema).toBeDefined();
  });

  it("outside a running graph, a hook's state is the request's own", () => {
    expect(hookState({ state: { budget: "1 0 0 0 0 0" } })).toEqual({ budget: "1 0 0 0 0 0" });
    const marked = withAgentLevelState(createMiddleware({ name: "Marked" }));
    expect(marked.name).toBe("Marked");
  });
});
