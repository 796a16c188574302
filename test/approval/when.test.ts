import { MemorySaver } from "@langchain/langgraph";
import { ConfigurationError, createDeepAgent } from "delve";
import { ScriptedChatModel } from "delve/testing";
import { describe, expect, it } from "vitest";
import { orderTools, requestOf, resume, thread, user } from "./helpers.js";

// interruptOn's `when`: a gate decided per call (delve run's rules ask only for some commands).
describe("interruptOn when", () => {
  it("gates only the calls `when` returns true for; the others run without a pause", async () => {
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          { name: "refund_order", args: { order_id: "ORD-1", amount: 5 }, id: "small" },
          { name: "refund_order", args: { order_id: "ORD-2", amount: 500 }, id: "big" },
        ],
      },
      "Done.",
    ]);
    const { tools, ran } = orderTools();
    const agent = createDeepAgent({
      model,
      tools,
      checkpointer: new MemorySaver(),
      interruptOn: { refund_order: { when: (call) => Number(call.args.amount) > 100 } },
    });
    const paused = await agent.invoke(user("refund both"), thread("when"));
    expect(requestOf(paused)!.actionRequests.map((a) => a.args)).toEqual([
      { order_id: "ORD-2", amount: 500 },
    ]);
    expect(ran).toEqual([]);
    await agent.invoke(resume([{ type: "approve" }]), thread("when"));
    expect(ran.map((r) => r.args.order_id).sort()).toEqual(["ORD-1", "ORD-2"]);
  });

  it("a `when` that is not a function is refused at construction", () => {
    const { tools } = orderTools();
    const make = () =>
      createDeepAgent({
        model: new ScriptedChatModel([]),
        tools,
        checkpointer: new MemorySaver(),
        interruptOn: { refund_order: { when: true as never } },
      });
    expect(make).toThrow(ConfigurationError);
    expect(make).toThrow(/refund_order\.when must be a function/);
  });
});
