/**
 * One racing process of the exactly-once suite: opens the SQLite checkpointer, prints
 * "ready", waits for a line on stdin (so two processes resume at the same instant), approves
 * the pending charge and prints one JSON line: the tool result, or the interrupt payload.
 * Usage: node --import tsx exactly-once-run.ts <db file> <ledger file> <thread id>
 */
import { createInterface } from "node:readline";
import { ToolMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { chargeAgent } from "./exactly-once-agent.js";

const [dbFile, ledger, threadId] = process.argv.slice(2) as [string, string, string];
const agent = chargeAgent(SqliteSaver.fromConnString(dbFile), ledger, false);
console.log("ready");
await new Promise<void>((resolve) =>
  createInterface({ input: process.stdin }).once("line", () => resolve()),
);
const out: any = await agent.invoke(
  new Command({ resume: { decisions: [{ type: "approve" }] } }) as any,
  { configurable: { thread_id: threadId } },
);
const result = out.messages.find(
  (m: unknown) => ToolMessage.isInstance(m) && (m as ToolMessage).tool_call_id === "c9",
);
console.log(JSON.stringify({ result: result?.content, request: out.__interrupt__?.[0]?.value }));
process.exit(0);
