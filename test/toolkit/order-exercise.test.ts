import { type BaseMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { createDeepAgent, fail, failureStatusMiddleware, lintTools, ok } from "delve";
import { ScriptedChatModel, type ScriptedStep } from "delve/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";

// Seed 004's closing exercise: the order tools refactored (enums, ranges, structured errors
// with hints), then a nonexistent id and out-of-range arguments, each fixed in one turn.

const ORDERS = Array.from({ length: 14 }, (_, i) => ({
  order_id: `ORD-${1001 + i}`,
  status: (["paid", "shipped", "refunding"] as const)[i % 3],
  amount: 20 + i,
  days_ago: i * 5,
}));
const PAGE_SIZE = 3;

function distance(a: string, b: string): number {
  let differences = Math.abs(a.length - b.length);
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) differences++;
  return differences;
}

const getOrder = tool(
  async ({ order_id }: { order_id: string }) => {
    const order = ORDERS.find((o) => o.order_id === order_id);
    if (order) return ok(order);
    const closest = [...ORDERS].sort(
      (a, b) => distance(a.order_id, order_id) - distance(b.order_id, order_id),
    )[0]!;
    return fail({
      code: "NOT_FOUND",
      message: `There is no order ${order_id}.`,
      hint: `The closest existing id is ${closest.order_id}; list_orders shows the others.`,
    });
  },
  {
    name: "get_order",
    description:
      "Look up one order by id: status, amount and age. Read-only. Not for browsing orders without an id: use list_orders.",
    schema: z.object({
      order_id: z
        .string()
        .regex(/^ORD-\d{4}$/)
        .describe("Order id such as ORD-1001"),
    }),
  },
);

const listOrders = tool(
  async ({ status, days, page }: { status: string; days: number; page: number }) => {
    const matching = ORDERS.filter((o) => o.status === status && o.days_ago <= days);
    const pages = Math.max(1, Math.ceil(matching.length / PAGE_SIZE));
    if (page > pages) {
      return fail({
        code: "OUT_OF_RANGE",
        message: `page ${page} is past the end: ${matching.length} orders make ${pages} pages.`,
        hint: `Ask for a page from 1 to ${pages}.`,
      });
    }
    const items = matching.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
    return ok({ total: matching.length, page, items: items.map((o) => o.order_id) });
  },
  {
    name: "list_orders",
    description: `List order ids in one status placed within the last days, ${PAGE_SIZE} per page, with total. Read-only. Not for one known order: use get_order.`,
    schema: z.object({
      status: z.enum(["paid", "shipped", "refunding"]).describe("Only orders in this status"),
      days: z.number().int().min(1).max(90).describe("Look-back window in days, 1 to 90"),
      page: z.number().int().min(1).max(100).describe("1-based page"),
    }),
  },
);

// The scripted model's only knowledge of the fix is the error it received.
const lastTool = (messages: BaseMessage[]) => messages.at(-1) as ToolMessage;
function correctedFrom(messages: BaseMessage[], original: Record<string, unknown>) {
  const error = lastTool(messages);
  const text = String(error.content);
  const json = text.startsWith("{") ? JSON.parse(text) : undefined;
  if (json?.code === "NOT_FOUND") return { ...original, order_id: json.hint.match(/ORD-\d{4}/)[0] };
  if (json?.code === "OUT_OF_RANGE") {
    return { ...original, page: Number(json.hint.match(/to (\d+)/)[1]) };
  }
  // A schema error: the validator states the bound and the argument that broke it.
  const bound = text.match(/"(\w+)" must be at most (\d+)/);
  if (bound) return { ...original, [bound[1]!]: Number(bound[2]) };
  throw new Error(`the scripted model cannot read this error: ${text}`);
}

async function exercise(name: string, badArgs: Record<string, unknown>) {
  const steps: ScriptedStep[] = [
    { toolCalls: [{ name, args: badArgs }] },
    (messages) => ({ toolCalls: [{ name, args: correctedFrom(messages, badArgs) }] }),
    (messages) => `Result: ${String(lastTool(messages).content)}`,
  ];
  const model = new ScriptedChatModel(steps);
  const agent = createDeepAgent({
    model,
    tools: [getOrder, listOrders],
    middleware: [failureStatusMiddleware()],
  });
  const out = await agent.invoke({ messages: [{ role: "user", content: "check my orders" }] });
  const results = out.messages.filter((m: BaseMessage) =>
    ToolMessage.isInstance(m),
  ) as ToolMessage[];
  return { model, results, answer: String(out.messages.at(-1)!.content) };
}

describe("seed 004's exercise: errors the model corrects in one turn", () => {
  it("the refactored order tools pass lintTools", () => {
    expect(lintTools([getOrder, listOrders])).toEqual([]);
  });

  it("a nonexistent order id comes back as NOT_FOUND with a hint, and the retry with the hinted id succeeds", async () => {
    const { model, results, answer } = await exercise("get_order", { order_id: "ORD-1091" });
    expect(model.calls).toHaveLength(3);
    expect(results.map((r) => r.status)).toEqual(["error", "success"]);
    expect(JSON.parse(String(results[0]!.content))).toMatchObject({
      ok: false,
      code: "NOT_FOUND",
      retryable: false,
    });
    expect(JSON.parse(String(results[1]!.content))).toMatchObject({
      ok: true,
      order_id: "ORD-1001",
    });
    expect(answer).toMatch(/"ok":true/);
  });

  it("a look-back window over the schema's maximum is refused before the tool runs, and the retry uses the stated bound", async () => {
    const { model, results } = await exercise("list_orders", {
      status: "paid",
      days: 365,
      page: 1,
    });
    expect(model.calls).toHaveLength(3);
    expect(results[0]!.status).toBe("error");
    expect(String(results[0]!.content)).toMatch(/invalid arguments for list_orders/);
    expect(JSON.parse(String(results[1]!.content))).toMatchObject({ ok: true, page: 1 });
    expect(model.calls[2]!.messages.at(-2)).toMatchObject({
      tool_calls: [expect.objectContaining({ args: { status: "paid", days: 90, page: 1 } })],
    });
  });

  it("a page past the end comes back as OUT_OF_RANGE with the valid range, and the retry succeeds", async () => {
    const { model, results } = await exercise("list_orders", {
      status: "paid",
      days: 90,
      page: 40,
    });
    expect(model.calls).toHaveLength(3);
    expect(results.map((r) => r.status)).toEqual(["error", "success"]);
    expect(JSON.parse(String(results[0]!.content))).toMatchObject({ code: "OUT_OF_RANGE" });
    expect(JSON.parse(String(results[1]!.content))).toMatchObject({ ok: true, page: 2, total: 5 });
  });
});
