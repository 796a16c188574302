/**
 * One process of the restart test: builds the same agent over a SQLite checkpointer, then
 * either starts the run (it pauses for approval and this process exits) or resumes it.
 * Usage: node --import tsx restart-run.ts <db file> <ledger file> start|resume
 * Prints one JSON line: the interrupt payload, or the final answer and the tool results (and,
 * on resume, what `pendingApprovals` read from the database before resuming).
 */
import { appendFileSync } from "node:fs";
import { ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { Command } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { createDeepAgent, pendingApprovals } from "delve";
import { ScriptedChatModel } from "delve/testing";
import { z } from "zod";

const [dbFile, ledger, phase] = process.argv.slice(2) as [string, string, string];

const deleteOrder = tool(
  async ({ order_id }: { order_id: string }) => {
    appendFileSync(ledger, `${process.pid} delete_order ${order_id}\n`);
    return JSON.stringify({ ok: true, deleted: order_id });
  },
  {
    name: "delete_order",
    description: "Delete one order by id. Irreversible.",
    schema: z.object({ order_id: z.string() }),
  },
);

// Each process scripts only the model calls it should see: a replay would run out of steps.
const model = new ScriptedChatModel(
  phase === "start"
    ? [{ toolCalls: [{ name: "delete_order", args: { order_id: "ORD-7" }, id: "d7" }] }]
    : [(messages) => `Done: ${messages.at(-1)!.text}`],
);
const checkpointer = SqliteSaver.fromConnString(dbFile);
const agent = createDeepAgent({
  model,
  tools: [deleteOrder],
  interruptOn: { delete_order: true },
  checkpointer,
});
const config = { configurable: { thread_id: "order-7" } };
const input =
  phase === "start"
    ? { messages: [{ role: "user" as const, content: "Delete ORD-7." }] }
    : new Command({ resume: { decisions: [{ type: "approve" }] } });
const pending = phase === "resume" ? await pendingApprovals(agent, config) : undefined;
const out: any = await agent.invoke(input as any, config);
const results = out.messages
  .filter((m: unknown) => ToolMessage.isInstance(m))
  .map((m: ToolMessage) => m.content);
console.log(
  JSON.stringify({
    request: out.__interrupt__?.[0]?.value,
    answer: out.__interrupt__ ? undefined : out.messages.at(-1).content,
    results,
    pending,
  }),
);
