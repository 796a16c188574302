import { Command, MemorySaver } from "@langchain/langgraph";
import { createDeepAgent, readPendingApprovals } from "delve";
import { deleteOrder, getOrder, model, refundOrder } from "./fixtures.js";

const agent = createDeepAgent({
  model,
  tools: [deleteOrder, refundOrder, getOrder],
  interruptOn: {
    refund_order: true, // approve, edit or reject
    delete_order: {
      allowedDecisions: ["approve", "reject"],
      description: (call) => `Delete ${call.args.order_id}? This cannot be undone.`,
    },
  },
  checkpointer: new MemorySaver(),
});
const config = { configurable: { thread_id: "orders-1" } };

const paused = await agent.invoke(
  { messages: [{ role: "user", content: "Refund and delete ORD-7" }] },
  config,
);
const request = paused.__interrupt__?.[0]?.value;
// { actionRequests: [{ name, args, description }, ...], reviewConfigs: [{ actionName, allowedDecisions }, ...], toolCallIds }
console.log(request);

await agent.invoke(
  new Command({
    resume: {
      decisions: [
        // one per action request, in the order of the model's calls
        {
          type: "edit",
          editedAction: { name: "refund_order", args: { order_id: "ORD-7", amount: 40 } },
        },
        { type: "reject", message: "Keep ORD-7: it has an open dispute." }, // the note
      ],
    },
  }),
  config,
);

// Several interrupts pending at once (parallel subagents): one answer per interrupt id.
const answers = Object.fromEntries(
  readPendingApprovals(paused).map((p) => [
    p.interruptId,
    { decisions: p.calls.map(() => ({ type: "approve" })) },
  ]),
);
await agent.invoke(new Command({ resume: answers }), config);
