/**
 * A process of the kill -9 suite. `run`: starts a thread whose first turn calls `record` (its
 * side effect: a line in the ledger file) and whose next model call hangs after printing
 * "hung" (the parent kills the process then). `resume`: resumes the thread (`invoke(null)`),
 * as a second server would, and prints the messages as one JSON line. Both use
 * `durability: "sync"`, so "hung" means LangGraph has seen every save of the tool's step done.
 * Usage: node --import tsx kill-resume-child.ts <run|resume> <saver> <ledger> <thread>, where
 * <saver> is `sqlite:<file>` or `postgres:<schema>:<url>`.
 */
import { appendFileSync } from "node:fs";
import { tool } from "@langchain/core/tools";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { createDeepAgent } from "delve";
import { compactCheckpointer } from "delve/checkpoint";
import { ScriptedChatModel } from "delve/testing";
import { z } from "zod";

const [mode, saverSpec, ledger, threadId] = process.argv.slice(2) as [
  "run" | "resume",
  string,
  string,
  string,
];

async function openSaver(spec: string) {
  if (spec.startsWith("sqlite:")) return SqliteSaver.fromConnString(spec.slice("sqlite:".length));
  const [, schema, ...url] = spec.split(":");
  const saver = PostgresSaver.fromConnString(url.join(":"), { schema });
  await saver.setup();
  return saver;
}

// Long arguments and results, so the step's writes are cut into chunks.
const body = "y".repeat(5000);
const record = tool(
  async ({ note }: { note: string }) => {
    appendFileSync(ledger, `${process.pid} ${note.slice(0, 2)}\n`);
    return `recorded ${note}`;
  },
  { name: "record", description: "Record a note.", schema: z.object({ note: z.string() }) },
);

class HangingModel extends ScriptedChatModel {
  override async _generate(...args: Parameters<ScriptedChatModel["_generate"]>) {
    if (mode === "run" && this.used === 1) {
      console.log("hung");
      await new Promise(() => {});
    }
    return super._generate(...args);
  }
}

setInterval(() => {}, 1000); // a hung turn must not let the process end by itself
const agent = createDeepAgent({
  model: new HangingModel(
    mode === "run"
      ? [{ toolCalls: [{ name: "record", args: { note: `n1 ${body}` }, id: "r1" }] }, "never"]
      : ["done"],
  ),
  tools: [record],
  checkpointer: compactCheckpointer(await openSaver(saverSpec)),
  summarization: false,
});
const config = { configurable: { thread_id: threadId }, durability: "sync" as const };
const out: any = await agent.invoke(
  mode === "run" ? { messages: [{ role: "user", content: "record it" }] } : null,
  config,
);
console.log(JSON.stringify(out.messages.map((m: any) => [m.type, String(m.content).slice(0, 11)])));
process.exit(0);
