import type { ToolMessage } from "@langchain/core/messages";
import { AIMessage, ToolMessage as ToolMessageClass } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { Command } from "@langchain/langgraph";
import type { ApprovalRequest } from "delve";
import { z } from "zod";

/** Order tools that record every execution, so a test can assert nothing ran twice. */
export function orderTools() {
  const ran: Array<{ tool: string; args: Record<string, unknown> }> = [];
  const deleteOrder = tool(
    async (args: { order_id: string }) => {
      ran.push({ tool: "delete_order", args });
      return JSON.stringify({ ok: true, deleted: args.order_id });
    },
    {
      name: "delete_order",
      description: "Delete one order by id. Irreversible.",
      schema: z.object({ order_id: z.string().regex(/^ORD-\d+$/) }),
    },
  );
  const refundOrder = tool(
    async (args: { order_id: string; amount: number }) => {
      ran.push({ tool: "refund_order", args });
      return JSON.stringify({ ok: true, refunded: args.amount });
    },
    {
      name: "refund_order",
      description: "Refund part of an order.",
      schema: z.object({ order_id: z.string(), amount: z.number().positive().max(500) }),
    },
  );
  const getOrder = tool(
    async (args: { order_id: string }) => {
      ran.push({ tool: "get_order", args });
      return JSON.stringify({ ok: true, order_id: args.order_id, status: "paid" });
    },
    {
      name: "get_order",
      description: "Look up one order by id. Changes nothing.",
      schema: z.object({ order_id: z.string() }),
    },
  );
  return { tools: [deleteOrder, refundOrder, getOrder], ran };
}

export const user = (content: string) => ({ messages: [{ role: "user" as const, content }] });
export const thread = (id: string) => ({ configurable: { thread_id: id } });
export const resume = (decisions: unknown) => new Command({ resume: { decisions } });

/** The approval request of a paused run (undefined when the run did not pause). */
export function requestOf(out: any): ApprovalRequest | undefined {
  return out?.__interrupt__?.[0]?.value;
}

export function toolMessages(out: { messages: any[] }): ToolMessage[] {
  return out.messages.filter((m) => ToolMessageClass.isInstance(m));
}

export function resultFor(out: { messages: any[] }, callId: string): ToolMessage | undefined {
  return toolMessages(out).find((m) => m.tool_call_id === callId);
}

export function aiWithCall(out: { messages: any[] }, callId: string): AIMessage | undefined {
  return out.messages.find(
    (m) => AIMessage.isInstance(m) && (m.tool_calls ?? []).some((c) => c.id === callId),
  );
}
