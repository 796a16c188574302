/**
 * A process of the kill -9 suite: runs a thread whose first model turn calls `record` (its
 * side effect: a line in the ledger file) and whose second turn hangs, printing "hung" (the
 * parent then kills it); or, with `resume`, resumes the thread (`invoke(null)`) and prints
 * one JSON line. Usage: node --import tsx kill-child.ts <run|resume> <saver spec> <ledger> <thread>
 * where the saver spec is `sqlite:<file>` or `postgres:<schema>:<url>`, optionally `plain:`.
 */
import { appendFileSync } from "node:fs";
import { tool } from "@langchain/core/tools";
import { Command } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { createDeepAgent } from "delve";
import { compactCheckpointer } from "delve/checkpoint";
import { ScriptedChatModel } from "delve/testing";
import { z } from "zod";

const [mode, spec0, ledger, threadId] = process.argv.slice(2) as [string, string, string, string];
const plain = spec0.startsWith("plain:");
const spec = plain ? spec0.slice(6) : spec0;
let base: any;
if (spec.startsWith("sqlite:")) base = SqliteSaver.fromConnString(spec.slice(7));
else {
  const [, schema, ...url] = spec.split(":");
  base = PostgresSaver.fromConnString(url.join(":"), { schema });
  await base.setup();
}
setInterval(() => {}, 1000); // a hung turn must not let the process end by itself
const checkpointer = plain ? base : compactCheckpointer(base);

const record = tool(
  async ({ note }: { note: string }) => {
    if (mode === "run" && note.startsWith("hang")) {
      console.log("hung");
      await new Promise(() => {});
    }
    appendFileSync(ledger, `${process.pid} ${note.slice(0, 10)}\n`);
    return `recorded ${note} ${"x".repeat(3000)}`;
  },
  { name: "record", description: "Record a note.", schema: z.object({ note: z.string() }) },
);

class HangingModel extends ScriptedChatModel {
  override async _generate(messages: any[], ...rest: any[]): Promise<any> {
    if (mode === "run" && this.used === (process.env.TWO_STEPS ? 2 : 1) && process.env.HANG_MODEL) {
      console.log("hung");
      await new Promise(() => {});
    }
    return (ScriptedChatModel.prototype as any)._generate.call(this, messages, ...rest);
  }
}
const body = "y".repeat(5000);
const call = (note: string, id: string) => ({
  toolCalls: [{ name: "record", args: { note: `${note} ${body}` }, id }],
});
const model = new HangingModel(
  mode === "run"
    ? process.env.TWO_STEPS
      ? [call("n0", "r0"), call("n1", "r1"), "never"]
      : [
          {
            toolCalls: [
              { name: "record", args: { note: `n1 ${body}` }, id: "r1" },
              { name: "record", args: { note: `hang ${body}` }, id: "r2" },
            ],
          },
          "never",
        ]
    : ["done"],
);
const approve = Boolean(process.env.APPROVE);
const agent = createDeepAgent({
  model,
  tools: [record],
  checkpointer,
  summarization: false,
  ...(approve ? { interruptOn: { record: true } } : {}),
});
const config = {
  configurable: { thread_id: threadId },
  ...(process.env.DURABILITY ? { durability: process.env.DURABILITY as "sync" } : {}),
};
const userInput = { messages: [{ role: "user", content: "record it" }] };
if (mode === "run") {
  await agent.invoke(userInput, config);
  if (approve) {
    console.log("paused");
    await agent.invoke(new Command({ resume: { decisions: [{ type: "approve" }, { type: "approve" }] } }) as any, config);
  }
} else {
  const input = approve ? new Command({ resume: { decisions: [{ type: "approve" }, { type: "approve" }] } }) : process.env.SAME_INPUT ? userInput : null;
  const out: any = await agent.invoke(input as any, config);
  console.log(JSON.stringify(out.messages.map((m: any) => [m.type ?? m.getType?.(), String(m.content).slice(0, 30)])));
}
process.exit(0);
