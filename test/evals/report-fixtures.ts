import { tool } from "@langchain/core/tools";
import { createDeepAgent, ok } from "delve";
import { calledTool, defineTaskSet, readOnly } from "delve/evals";
import { ScriptedChatModel } from "delve/testing";
import { z } from "zod";

// The task set and scripted models the HTML report tests run.
/** Two tasks on an order desk: `look-up` must stay read-only, `refund` must refund ORD-2. */
export const setOf = () =>
  defineTaskSet({
    name: "orders <desk>",
    agent: (model) =>
      createDeepAgent({
        model,
        tools: [
          tool(async ({ id }) => ok({ id, status: "paid" }), {
            name: "get_order",
            description: "Look up an order.",
            schema: z.object({ id: z.string() }),
          }),
          tool(async ({ id }) => ok({ id, refunded: true }), {
            name: "refund_order",
            description: "Refund an order; permanent.",
            schema: z.object({ id: z.string() }),
          }),
        ],
      }),
    tasks: [
      { id: "look-up", input: "Is ORD-1 paid?", expect: [calledTool("get_order"), readOnly()] },
      {
        id: "refund",
        input: "Refund ORD-2.",
        expect: [calledTool("refund_order", { id: "ORD-2" })],
      },
    ],
  });

/** A model that does both tasks right. */
export const good = (task: { id: string }) =>
  new ScriptedChatModel(
    task.id === "look-up"
      ? [{ toolCalls: [{ name: "get_order", args: { id: "ORD-1" } }] }, "ORD-1 is paid."]
      : [
          { toolCalls: [{ name: "refund_order", args: { id: "ORD-2" } }] },
          "Refunded ORD-2 <b>now</b>.",
        ],
  );
/** Looks ORD-1 up (that check passes) and refunds it too (read-only fails). */
export const sloppy = (task: { id: string }) =>
  task.id === "look-up"
    ? new ScriptedChatModel([
        { toolCalls: [{ name: "get_order", args: { id: "ORD-1" } }] },
        { toolCalls: [{ name: "refund_order", args: { id: "ORD-1" } }] },
        "Refunded it too.",
      ])
    : good(task);
