/**
 * One racing process of the ask_user cross-process suite: opens the thread's checkpointer
 * (SQLite file or PostgreSQL schema), prints "ready", waits for a line on stdin, resumes the
 * pending question with its answer and prints one JSON line: the tool's result, or the
 * question asked again (with its error).
 * Usage: node --import tsx answer-process.ts sqlite <file> <thread> <answer>
 *        node --import tsx answer-process.ts postgres <url> <thread> <answer> <schema>
 */
import { createInterface } from "node:readline";
import { Command } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { pendingQuestions, toolText } from "delve";
import { askingAgent } from "./asking-agent.js";

const [kind, conn, threadId, answer, schema] = process.argv.slice(2) as string[];
const saver =
  kind === "postgres"
    ? PostgresSaver.fromConnString(conn!, { schema: schema! })
    : SqliteSaver.fromConnString(conn!);
const agent = askingAgent(saver, false);
console.log("ready");
await new Promise<void>((resolve) =>
  createInterface({ input: process.stdin }).once("line", () => resolve()),
);
const out: any = await agent.invoke(new Command({ resume: { answer } }), {
  configurable: { thread_id: threadId },
});
const result = out.messages.find((m: any) => m.tool_call_id === "q1");
console.log(
  JSON.stringify({
    result: result ? toolText(result) : undefined,
    error: pendingQuestions(out)[0]?.error,
  }),
);
process.exit(0);
