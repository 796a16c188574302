import { tool } from "@langchain/core/tools";
import { fail, ok } from "delve";
import { z } from "zod";
import { orders } from "./fixtures.js";

export const getOrder = tool(
  async ({ order_id }) => {
    const order = orders.get(order_id);
    if (!order) {
      return fail({
        code: "NOT_FOUND",
        message: `No order ${order_id}.`,
        hint: "Ids look like ORD-1001.",
      });
    }
    return ok({ order_id, status: order.status });
  },
  {
    name: "get_order",
    description:
      "Look up one order by id: status and total. Read-only. Not for refunds: use refund_order.",
    schema: z.object({ order_id: z.string().regex(/^ORD-\d+$/) }),
  },
);
