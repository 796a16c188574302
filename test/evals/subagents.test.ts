import { tool } from "@langchain/core/tools";
import { createDeepAgent, ok } from "delve";
import { calledTool, defineTaskSet, maxModelCalls, readOnly, runTaskSet } from "delve/evals";
import { ScriptedChatModel } from "delve/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const refund = tool(async ({ id }) => ok({ id, refunded: true }), {
  name: "refund_order",
  description: "Refund an order; permanent.",
  schema: z.object({ id: z.string() }),
});

describe("a subagent's work is part of the trajectory", () => {
  it("its model calls count against the budget and its mutating calls fail readOnly()", async () => {
    const set = defineTaskSet({
      name: "delegation",
      agent: (model) => createDeepAgent({ model, tools: [refund] }),
      tasks: [
        {
          id: "look",
          input: "Look at ORD-1.",
          expect: [readOnly(), maxModelCalls(2), calledTool("refund_order", { id: "ORD-1" })],
        },
      ],
    });
    // Parent delegates; the general-purpose subagent (same model) refunds, answers; parent answers.
    const model = () =>
      new ScriptedChatModel([
        {
          toolCalls: [
            {
              name: "task",
              args: { description: "Check ORD-1.", subagent_type: "general-purpose" },
            },
          ],
        },
        { toolCalls: [{ name: "refund_order", args: { id: "ORD-1" } }] },
        "Refunded ORD-1.",
        "The subagent refunded ORD-1.",
      ]);
    const report = await runTaskSet(set, { model });
    const run = report.tasks[0]!.runs[0]!;
    expect(run.trajectory.map((e) => (e.kind === "tool" ? `tool:${e.name}` : e.kind))).toEqual([
      "model",
      "model",
      "tool:refund_order",
      "model",
      "tool:task",
      "model",
    ]);
    expect(run.expectations.map((e) => e.reason ?? "pass")).toEqual([
      'refund_order changes data, but was called at step 2 with {"id":"ORD-1"}',
      "budget maxModelCalls(2) exceeded: 4 model calls",
      "pass",
    ]);
  });
});
