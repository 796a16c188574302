import { ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import {
  ConfigurationError,
  createDeepAgent,
  fail,
  failureStatusMiddleware,
  isFailure,
  markFailures,
  ok,
} from "delve";
import { ScriptedChatModel } from "delve/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const ORDERS: Record<string, { status: string }> = { "ORD-1001": { status: "paid" } };

// Written exactly as a user would: LangChain's plain tool(), returning ok()/fail() directly.
const getOrder = tool(
  async ({ order_id }: { order_id: string }) => {
    const order = ORDERS[order_id];
    if (!order) {
      return fail({
        code: "NOT_FOUND",
        message: `No order ${order_id}.`,
        hint: "Order ids look like ORD-1001.",
      });
    }
    return ok({ order_id, status: order.status });
  },
  {
    name: "get_order",
    description: "Look up one order by id.",
    schema: z.object({ order_id: z.string() }),
  },
);

// createDeepAgent marks fail() results as errors itself (its ToolErrorsMiddleware does).
async function runOnce(tools: any[], args: Record<string, unknown>, name = "get_order") {
  const model = new ScriptedChatModel([{ toolCalls: [{ name, args }] }, "done"]);
  const agent = createDeepAgent({ model, tools });
  await agent.invoke({ messages: [{ role: "user", content: "go" }] });
  const seen = model.calls[1]!.messages.at(-1) as ToolMessage;
  expect(ToolMessage.isInstance(seen)).toBe(true);
  return seen;
}

describe("ok() and fail()", () => {
  it("the model receives a fail() result as compact JSON on an error tool message", async () => {
    const seen = await runOnce([getOrder], { order_id: "ORD-9" });
    expect(seen.status).toBe("error");
    expect(seen.content).toBe(
      '{"ok":false,"code":"NOT_FOUND","message":"No order ORD-9.","hint":"Order ids look like ORD-1001.","retryable":false}',
    );
  });

  it("the model receives an ok() result as compact JSON on a successful tool message", async () => {
    const seen = await runOnce([getOrder], { order_id: "ORD-1001" });
    expect(seen.status).toBe("success");
    expect(seen.content).toBe('{"ok":true,"order_id":"ORD-1001","status":"paid"}');
  });

  it("a hand-written { ok: false, code } result (seed 001 style) is marked as an error too", async () => {
    const legacy = tool(async () => JSON.stringify({ ok: false, code: "FORBIDDEN" }), {
      name: "update_order",
      description: "Update an order.",
      schema: z.object({ order_id: z.string() }),
    });
    const seen = await runOnce([legacy], { order_id: "ORD-1001" }, "update_order");
    expect(seen.status).toBe("error");
  });

  it("called directly, a tool returns the plain result objects", async () => {
    expect(await getOrder.invoke({ order_id: "ORD-1001" })).toEqual({
      ok: true,
      order_id: "ORD-1001",
      status: "paid",
    });
    const failure = await getOrder.invoke({ order_id: "nope" });
    expect(isFailure(failure)).toBe(true);
  });

  it("fail() omits an absent hint and defaults retryable to false", () => {
    expect(
      JSON.stringify(fail({ code: "TIMEOUT", message: "CRM timed out.", retryable: true })),
    ).toBe('{"ok":false,"code":"TIMEOUT","message":"CRM timed out.","retryable":true}');
  });

  it("fail() refuses a code that is not SCREAMING_SNAKE_CASE, and an empty message", () => {
    for (const code of ["not_found", "NotFound", "NOT FOUND", "_X", ""]) {
      expect(() => fail({ code, message: "m" })).toThrow(ConfigurationError);
    }
    expect(() => fail({ code: "NOT_FOUND", message: " " })).toThrow(/message is required/);
    expect(fail({ code: "E2E_FAILED", message: "m" }).code).toBe("E2E_FAILED");
  });

  it("ok() refuses data that is not a plain object or has its own ok key", () => {
    expect(() => ok([1, 2] as any)).toThrow(/plain object/);
    expect(() => ok({ ok: false } as any)).toThrow(/"ok" key/);
    expect(ok()).toEqual({ ok: true });
  });

  it("isFailure reads objects, JSON text and single text blocks, and nothing else", () => {
    const text = JSON.stringify(fail({ code: "NOT_FOUND", message: "m" }));
    expect(isFailure(text)).toBe(true);
    expect(isFailure([{ type: "text", text }])).toBe(true);
    expect(isFailure('{"ok":true}')).toBe(false);
    expect(isFailure("ok: false, code: X")).toBe(false);
    expect(isFailure({ ok: false })).toBe(false);
  });

  it("markFailures leaves successes and already-failed messages alone", () => {
    const success = new ToolMessage({ content: '{"ok":true}', tool_call_id: "1" });
    expect(markFailures(success).status).not.toBe("error");
    const failed = new ToolMessage({
      content: '{"ok":false,"code":"X_Y","message":"m"}',
      tool_call_id: "2",
    });
    expect(markFailures(failed).status).toBe("error");
  });
});

describe("failureStatusMiddleware", () => {
  it("marks fail() results as errors in a plain LangChain createAgent", async () => {
    const { createAgent } = await import("langchain");
    const getOrder = tool(
      async () =>
        fail({ code: "NOT_FOUND", message: "no such order", hint: "ids look like ORD-1001" }),
      {
        name: "get_order",
        description: "Look up one order.",
        schema: z.object({ id: z.string() }),
      },
    );
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "get_order", args: { id: "x" } }] },
      "ok",
    ]);
    const plain = createAgent({
      model,
      tools: [getOrder],
      middleware: [failureStatusMiddleware()],
    });
    const out = await plain.invoke({ messages: [{ role: "user", content: "go" }] });
    const result = out.messages.find((m) => ToolMessage.isInstance(m)) as ToolMessage;
    expect(result.status).toBe("error");
    expect(JSON.parse(String(result.content))).toMatchObject({ ok: false, code: "NOT_FOUND" });
  });
});
