import type { AIMessage, BaseMessage, ToolMessage } from "@langchain/core/messages";
import { resultObjectOf } from "../toolkit/result.js";
import { toolText } from "../toolkit/tool-text.js";
import type { ModelCall } from "./eval-model.js";
import type {
  ApprovalEvent,
  ModelTurn,
  QuestionEvent,
  TokenUsage,
  ToolResult,
  TrajectoryEvent,
} from "./types.js";

/** USD per million tokens, by model name (`"gpt-5.5"`) or `"provider:model"`. */
export type PriceTable = Record<string, { input: number; output: number }>;

/** An approval interrupt or an `ask_user` question, placed after the model call it paused. */
export interface ApprovalMark {
  afterCall: number;
  event: ApprovalEvent | QuestionEvent;
}

/**
 * The trajectory of one run, in order: each model call (text, tool calls, usage, time),
 * each tool result as the next request first carried it (so subagents' tools count too),
 * approvals and questions where they paused the run, and results that only the final state holds.
 */
export function buildTrajectory(
  calls: ModelCall[],
  finalMessages: BaseMessage[],
  approvals: ApprovalMark[] = [],
  prices: PriceTable = {},
  modelName?: string,
): TrajectoryEvent[] {
  const events: TrajectoryEvent[] = [];
  const seen = new Set<string>();
  const args = new Map<string, Record<string, unknown>>();
  const emitResults = (messages: BaseMessage[]) => {
    for (const m of messages) {
      if (m.getType() !== "tool") continue;
      const tm = m as ToolMessage;
      const id = `${tm.tool_call_id}\u0000${toolText(tm)}`;
      if (seen.has(id)) continue;
      seen.add(id);
      events.push(toolResultOf(tm, args.get(tm.tool_call_id) ?? {}));
    }
  };
  calls.forEach((call, i) => {
    emitResults(call.request);
    const turn = modelTurnOf(call, i + 1, prices, modelName);
    for (const c of turn.toolCalls) args.set(c.id, c.args);
    events.push(turn);
    for (const a of approvals) if (a.afterCall === i + 1) events.push(a.event);
  });
  emitResults(finalMessages);
  return events;
}

function modelTurnOf(
  call: ModelCall,
  step: number,
  prices: PriceTable,
  fallback?: string,
): ModelTurn {
  const message = call.response as AIMessage;
  const usage = usageOf(message);
  const model =
    String((message.response_metadata as any)?.model_name ?? fallback ?? "") || undefined;
  const price = model ? (prices[model] ?? prices[model.split(":").pop() as string]) : undefined;
  return {
    kind: "model",
    step,
    text: toolText(message),
    toolCalls: (message.tool_calls ?? []).map((c, i) => ({
      id: c.id ?? `call_${step}_${i}`,
      name: c.name,
      args: (c.args ?? {}) as Record<string, unknown>,
    })),
    ...(usage ? { usage } : {}),
    ...(usage && price
      ? { cost: (usage.input * price.input + usage.output * price.output) / 1_000_000 }
      : {}),
    ms: call.ms,
    ...(model ? { model } : {}),
  };
}

function usageOf(message: AIMessage): TokenUsage | undefined {
  const u = message.usage_metadata;
  if (!u) return undefined;
  const input = u.input_tokens ?? 0;
  const output = u.output_tokens ?? 0;
  return { input, output, total: u.total_tokens ?? input + output };
}

function toolResultOf(message: ToolMessage, args: Record<string, unknown>): ToolResult {
  const content = toolText(message);
  const object = resultObjectOf(content);
  const structuredFailure = object?.ok === false && typeof object.code === "string";
  return {
    kind: "tool",
    callId: message.tool_call_id,
    name: message.name ?? "?",
    args,
    failed: message.status === "error" || structuredFailure,
    ...(structuredFailure ? { code: object.code as string } : {}),
    content,
  };
}

/**
 * The trajectory of a finished run from its messages alone (an `agent.invoke` result): each
 * AI message is a model turn, each tool message a result. No times, and no subagent calls.
 */
export function trajectoryFromMessages(messages: BaseMessage[]): TrajectoryEvent[] {
  const calls: ModelCall[] = messages
    .filter((m) => m.getType() === "ai")
    .map((m) => ({ request: [], response: m as AIMessage, ms: 0 }));
  const byResponse = new Map(calls.map((c) => [c.response, c]));
  // Replay the messages in order: each AI message's request is everything before it.
  messages.forEach((m, i) => {
    const call = byResponse.get(m as AIMessage);
    if (call) call.request = messages.slice(0, i);
  });
  return buildTrajectory(calls, messages).map((e) => {
    if (e.kind !== "model") return e;
    const { ms: _ms, ...rest } = e;
    return rest;
  });
}

/** The model turns of a trajectory. */
export const modelTurns = (t: TrajectoryEvent[]) =>
  t.filter((e): e is ModelTurn => e.kind === "model");

/** The tool results of a trajectory. */
export const toolResults = (t: TrajectoryEvent[]) =>
  t.filter((e): e is ToolResult => e.kind === "tool");

/** Every tool call the model made, in order, with its arguments. */
export const toolCallsOf = (t: TrajectoryEvent[]) => modelTurns(t).flatMap((m) => m.toolCalls);

/** The summed usage of a trajectory's model turns. */
export function totalUsage(t: TrajectoryEvent[]): TokenUsage {
  const sum = { input: 0, output: 0, total: 0 };
  for (const m of modelTurns(t)) {
    sum.input += m.usage?.input ?? 0;
    sum.output += m.usage?.output ?? 0;
    sum.total += m.usage?.total ?? 0;
  }
  return sum;
}
