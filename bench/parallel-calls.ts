/**
 * Parallel tool calls in one turn: a scripted model sends N calls to a cheap tool at once,
 * then answers. Prints the CPU time (user + system) of the whole `invoke` per N, which the
 * other processes on a shared machine disturb far less than wall time. Summarization is
 * off, so only the tool step is measured. `--delta` gives `messages` LangGraph's
 * `MessagesDeltaValue`, whose batch reducer merges one step's writes in one pass.
 *
 * @example
 * npx tsx bench/parallel-calls.ts 2000 10000
 * npx tsx bench/parallel-calls.ts --delta 2000 10000
 */
import { tool } from "@langchain/core/tools";
import { MessagesDeltaValue, StateSchema } from "@langchain/langgraph";
import { z } from "zod";
import { createDeepAgent } from "../src/index.js";
import { ScriptedChatModel } from "../src/models/scripted-model.js";

const ping = tool(async ({ i }: { i: number }) => `ok ${i}`, {
  name: "ping",
  description: "Ping.",
  schema: z.object({ i: z.number() }),
});

/** CPU milliseconds of one turn with `n` parallel calls. */
export async function parallelCallsCpuMs(n: number, delta = false): Promise<number> {
  const calls = Array.from({ length: n }, (_, i) => ({ name: "ping", args: { i }, id: `c${i}` }));
  const model = new ScriptedChatModel([{ toolCalls: calls }, "done"]);
  const agent = createDeepAgent({
    model,
    tools: [ping],
    summarization: false,
    ...(delta ? { stateSchema: new StateSchema({ messages: MessagesDeltaValue }) } : {}),
  } as Parameters<typeof createDeepAgent>[0]);
  const start = process.cpuUsage();
  const out = await agent.invoke({ messages: [{ role: "user", content: "go" }] });
  if (out.messages.length !== n + 3) throw new Error(`expected ${n + 3} messages`);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const delta = args.includes("--delta");
  const sizes = args.filter((a) => a !== "--delta").map(Number);
  for (const n of sizes.length ? sizes : [2000, 10000]) {
    const ms = await parallelCallsCpuMs(n, delta);
    console.log(`${n} calls${delta ? " (delta messages)" : ""}: ${Math.round(ms)} ms CPU`);
  }
}
