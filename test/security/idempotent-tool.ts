/** The idempotent `charge` tool of the idempotent() suite: each run appends one ledger line. */
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { tool } from "@langchain/core/tools";
import type { BaseStore } from "@langchain/langgraph";
import { idempotent, ok } from "delve";
import { z } from "zod";

/** `charge` made idempotent by order id over `store`; `hang` stops it after its side effect. */
export function chargeTool(
  store: BaseStore,
  ledger: string,
  options: { hang?: boolean; leaseMs?: number } = {},
) {
  const charge = tool(
    async ({ order_id }: { order_id: string }) => {
      appendFileSync(ledger, `${process.pid} charge ${order_id}\n`);
      if (options.hang) {
        console.log("effect");
        await new Promise(() => setInterval(() => {}, 1000));
      }
      // Long enough that callers racing from other processes find the claim taken.
      await new Promise((r) => setTimeout(r, 200));
      return ok({ charged: order_id, by: process.pid });
    },
    {
      name: "charge",
      description: "Charge the card of one order. Irreversible.",
      schema: z.object({ order_id: z.string() }),
    },
  );
  return idempotent(charge, { key: (a) => a.order_id, store, leaseMs: options.leaseMs });
}

/** How many times `charge` ran, by the ledger. */
export function charges(ledger: string): number {
  return existsSync(ledger) ? readFileSync(ledger, "utf8").trim().split("\n").length : 0;
}
