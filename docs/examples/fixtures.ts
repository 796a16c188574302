// Stand-ins the other samples import: a model id and three order tools over an in-memory
// table. Replace them with your own model and data access.
import { tool } from "@langchain/core/tools";
import { fail, InMemoryBackend, ok } from "delve";
import { z } from "zod";

/** Any LangChain chat model instance, or a "provider:model" string resolved on first call. */
export const model = "anthropic:claude-sonnet-4-6";

/** A tiny order table standing in for your database. */
export const orders = new Map([["ORD-7", { status: "delivered", total: 40 }]]);

const orderId = z.object({ order_id: z.string().regex(/^ORD-\d+$/) });

export const getOrder = tool(
  async ({ order_id }) => {
    const order = orders.get(order_id);
    return order ? ok({ order_id, ...order }) : fail({ code: "NOT_FOUND", message: order_id });
  },
  {
    name: "get_order",
    description: "Look up one order by id: status and total. Read-only.",
    schema: orderId,
  },
);

export const refundOrder = tool(
  async ({ order_id, amount }) => ok({ order_id, refunded: amount }),
  {
    name: "refund_order",
    description: "Refund part or all of an order. Moves money: confirm the amount first.",
    schema: orderId.extend({ amount: z.number().positive() }),
  },
);

export const deleteOrder = tool(
  async ({ order_id }) => ok({ order_id, deleted: orders.delete(order_id) }),
  {
    name: "delete_order",
    description: "Delete an order record for good. Irreversible.",
    schema: orderId,
  },
);

/** Stands in for a third-party backend class under test. */
export class MyBackend extends InMemoryBackend {}
