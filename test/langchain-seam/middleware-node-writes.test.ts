// The assumptions of src/langchain-seam/middleware-node-writes.ts, each checked against the
// installed langchain: when one breaks, the failure names it.
import { HumanMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { createAgent, createMiddleware } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  isMiddlewareNode,
  leanMiddlewareWrites,
} from "../../src/langchain-seam/middleware-node-writes.js";
import { ScriptedChatModel } from "../../src/models/scripted-model.js";

// A hook that updates one key of its own: langchain writes the state back around it.
const counting = createMiddleware({
  name: "Counting",
  stateSchema: z.object({ seen: z.number().default(0) }),
  afterModel: (state: any) => ({ seen: (state.seen ?? 0) + 1 }),
});

async function channelsWrittenByHook(lean: boolean): Promise<string[]> {
  const checkpointer = new MemorySaver();
  const agent: any = createAgent({
    model: new ScriptedChatModel(["hello"]),
    tools: [],
    middleware: [counting],
    checkpointer,
  });
  if (lean) expect(leanMiddlewareWrites(agent.graph)).toBeGreaterThan(0);
  const config = { configurable: { thread_id: "t" } };
  const out = await agent.invoke({ messages: [new HumanMessage("hi")] }, config);
  expect(out.seen).toBe(1);
  expect(out.messages.map((m: any) => m.content)).toEqual(["hi", "hello"]);
  const written: string[] = [];
  for await (const tuple of checkpointer.list(config)) {
    for (const [, channel] of tuple.pendingWrites ?? []) written.push(channel);
  }
  return written;
}

describe("langchain's middleware hook nodes (middleware-node-writes seam)", () => {
  it("are MiddlewareNode instances with invoke(state, config)", () => {
    const agent: any = createAgent({
      model: new ScriptedChatModel([]),
      tools: [],
      middleware: [counting],
    });
    const hook = agent.graph.nodes["Counting.after_model"]?.bound;
    expect(hook, "no node named <middleware>.after_model in the agent graph").toBeDefined();
    expect(isMiddlewareNode(hook), "the hook's node is no longer a MiddlewareNode").toBe(true);
    expect(typeof hook.invoke).toBe("function");
  });

  it("write the whole message list back when a hook returns an update, unless made lean", async () => {
    const plain = await channelsWrittenByHook(false);
    // messages: once by the model, once more by the hook re-emitting the state.
    expect(
      plain.filter((c) => c === "messages").length,
      "langchain's hook node no longer writes the unchanged messages back: the seam may be dropped",
    ).toBeGreaterThan(2);
    const lean = await channelsWrittenByHook(true);
    expect(lean.filter((c) => c === "messages").length).toBe(
      plain.filter((c) => c === "messages").length - 1,
    );
    const seen = (writes: string[]) => writes.filter((c) => c === "seen").length;
    expect(seen(lean)).toBe(seen(plain));
  });
});
