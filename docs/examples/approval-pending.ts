import { Command } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { createDeepAgent, pendingApprovals } from "delve";
import { deleteOrder, model, refundOrder } from "./fixtures.js";

// A new process: the same agent over the same database.
const agent = createDeepAgent({
  model,
  tools: [deleteOrder, refundOrder],
  interruptOn: { refund_order: true, delete_order: true },
  checkpointer: SqliteSaver.fromConnString("checkpoints.db"),
});
const config = { configurable: { thread_id: "orders-1" } };

const pending = await pendingApprovals(agent, config); // [] when nothing waits
for (const { calls } of pending) {
  for (const call of calls) console.log(call.id, call.name, call.args, call.allowedDecisions);
}
// Approve everything: one answer per interrupt id, one decision per call, in order.
const answers = Object.fromEntries(
  pending.map((p) => [p.interruptId, { decisions: p.calls.map(() => ({ type: "approve" })) }]),
);
if (pending.length > 0) await agent.invoke(new Command({ resume: answers }), config);
