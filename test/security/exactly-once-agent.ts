/**
 * The agent of the exactly-once suite: one gated `charge` tool whose side effect is a line
 * appended to a ledger file, so a test (or several processes) can count executions.
 */
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { tool } from "@langchain/core/tools";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { createDeepAgent } from "delve";
import { ScriptedChatModel } from "delve/testing";
import { z } from "zod";

/** Builds the agent over `checkpointer`; `pause` scripts the first model turn (the gated call). */
export function chargeAgent(checkpointer: BaseCheckpointSaver, ledger: string, pause: boolean) {
  const charge = tool(
    async ({ order_id }: { order_id: string }) => {
      // Long enough that racing resumes overlap inside the tool.
      await new Promise((r) => setTimeout(r, 150));
      appendFileSync(ledger, `${process.pid} charge ${order_id}\n`);
      return JSON.stringify({ ok: true, charged: order_id });
    },
    {
      name: "charge",
      description: "Charge the card of one order. Irreversible.",
      schema: z.object({ order_id: z.string() }),
    },
  );
  const answer = (messages: any[]) => `Done: ${messages.at(-1).text}`;
  const model = new ScriptedChatModel([
    ...(pause ? [{ toolCalls: [{ name: "charge", args: { order_id: "ORD-9" }, id: "c9" }] }] : []),
    ...Array.from({ length: 8 }, () => answer),
  ]);
  return createDeepAgent({ model, tools: [charge], interruptOn: { charge: true }, checkpointer });
}

/** How many times `charge` ran, by the ledger. */
export function charges(ledger: string): number {
  return existsSync(ledger) ? readFileSync(ledger, "utf8").trim().split("\n").length : 0;
}
