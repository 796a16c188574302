import { tool } from "@langchain/core/tools";
import { Command, interrupt, MemorySaver } from "@langchain/langgraph";
import { createDeepAgent, pendingApprovals, readPendingApprovals } from "delve";
import { ScriptedChatModel } from "delve/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { orderTools, resume, thread, user } from "./helpers.js";

describe("pendingApprovals: a paused thread's approvals, typed", () => {
  it("a fresh agent instance over the same checkpointer lists the calls paused inside parallel subagents, and its answer map resumes them", async () => {
    const saver = new MemorySaver();
    // Each instance scripts only the model calls it makes (a new process would not replay).
    const build = (
      parentScript: ConstructorParameters<typeof ScriptedChatModel>[0],
      resumed = false,
    ) => {
      const { tools, ran } = orderTools();
      const clerk = (name: string, order_id: string) => ({
        name,
        description: `Deletes ${order_id}.`,
        systemPrompt: "Delete the order.",
        model: new ScriptedChatModel(
          resumed
            ? [(messages) => messages.at(-1)!.text]
            : [{ toolCalls: [{ name: "delete_order", args: { order_id }, id: `s-${name}` }] }],
        ),
      });
      const agent = createDeepAgent({
        model: new ScriptedChatModel(parentScript),
        tools,
        subagents: [clerk("a", "ORD-1"), clerk("b", "ORD-2")],
        interruptOn: { delete_order: { allowedDecisions: ["approve", "reject"] } },
        checkpointer: saver,
      });
      return { agent, ran };
    };
    const first = build([
      {
        toolCalls: [
          { name: "task", args: { description: "Delete ORD-1.", subagent_type: "a" }, id: "t1" },
          { name: "task", args: { description: "Delete ORD-2.", subagent_type: "b" }, id: "t2" },
        ],
      },
    ]);
    const paused = await first.agent.invoke(user("delete both"), thread("pending-sub"));

    // A second instance, as after a restart: nothing is shared but the checkpointer.
    const second = build(["Parent done."], true);
    const pending = await pendingApprovals(second.agent, thread("pending-sub"));
    expect(pending.map((p) => p.calls).sort((x, y) => x[0]!.id!.localeCompare(y[0]!.id!))).toEqual(
      ["a", "b"].map((name, i) => [
        {
          id: `s-${name}`,
          name: "delete_order",
          args: { order_id: `ORD-${i + 1}` },
          description: "delete_order needs approval before it runs.",
          allowedDecisions: ["approve", "reject"],
        },
      ]),
    );
    // The same interrupts as the paused invoke reported, read from its result too.
    const ids = (paused.__interrupt__ ?? []).map((i) => i.id).sort();
    expect(pending.map((p) => p.interruptId).sort()).toEqual(ids);
    expect(readPendingApprovals(paused)).toEqual(pending);

    const answers = Object.fromEntries(
      pending.map((p) => [p.interruptId, { decisions: p.calls.map(() => ({ type: "approve" })) }]),
    );
    const out = await second.agent.invoke(new Command({ resume: answers }), thread("pending-sub"));
    expect(second.ran.map((r) => r.args.order_id).sort()).toEqual(["ORD-1", "ORD-2"]);
    expect(out.messages.at(-1)!.content).toBe("Parent done.");
    expect(await pendingApprovals(second.agent, thread("pending-sub"))).toEqual([]);
  });

  it("a resume that could not be applied shows its error; a thread that is not paused has none", async () => {
    const { tools } = orderTools();
    const agent = createDeepAgent({
      model: new ScriptedChatModel([
        { toolCalls: [{ name: "delete_order", args: { order_id: "ORD-1" }, id: "d1" }] },
        "Done.",
      ]),
      tools,
      interruptOn: { delete_order: true },
      checkpointer: new MemorySaver(),
    });
    expect(await pendingApprovals(agent, thread("pending-error"))).toEqual([]);
    await agent.invoke(user("delete"), thread("pending-error"));
    await agent.invoke(resume([]), thread("pending-error"));
    const [only] = await pendingApprovals(agent, thread("pending-error"));
    expect(only!.error).toMatch(/^Expected 1 decision .* got 0/);
    expect(only!.calls.map((c) => c.id)).toEqual(["d1"]);
  });

  it("an interrupt that is not an approval request (a tool's own interrupt()) is not listed", async () => {
    const ask = tool(async () => interrupt({ question: "Which order?" }), {
      name: "ask_human",
      description: "Ask the human.",
      schema: z.object({}),
    });
    const agent = createDeepAgent({
      model: new ScriptedChatModel([{ toolCalls: [{ name: "ask_human", args: {}, id: "q1" }] }]),
      tools: [ask],
      checkpointer: new MemorySaver(),
    });
    const paused = await agent.invoke(user("ask"), thread("pending-other"));
    expect(paused.__interrupt__).toHaveLength(1);
    expect(readPendingApprovals(paused)).toEqual([]);
    expect(await pendingApprovals(agent, thread("pending-other"))).toEqual([]);
  });
});
