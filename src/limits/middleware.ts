import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { Command, isCommand, ReducedValue, StateSchema } from "@langchain/langgraph";
import { type AgentMiddleware, createMiddleware } from "langchain";
import { z } from "zod";
import { hookState, withAgentLevelState } from "../agent/hook-state.js";
import {
  currentUsageScope,
  type UsageScope,
  usageOfReply,
  withUsageScope,
} from "../models/usage-scope.js";
import { costUsd, resolvePrice } from "../run/prices.js";
import {
  type BudgetContext,
  contextOf,
  exceeded,
  inSubagent,
  mergeCounts,
  snapshot,
  stateCopy,
  withSubagentContext,
} from "./budget.js";
import { runWithTimeout, timeoutOf } from "./tool-timeout.js";
import {
  BUDGET_KEY,
  DEFAULT_LOOP_GUARD,
  LIMITS_MIDDLEWARE_NAME,
  type LimitHit,
  type RunLimits,
} from "./types.js";

const hitSchema = z.object({
  name: z.string(),
  value: z.number(),
  used: z.number(),
  reason: z.string(),
});

/**
 * The budgets and the loop guard of `createDeepAgent({ limits })`: counts every model and
 * tool call of the tree in one live counter, refuses `task` over depth or breadth, and
 * stops the run with a final message and a `limit` marker in the state.
 */
export function limitsMiddleware(limits: RunLimits): AgentMiddleware {
  const loop = limits.loop === false ? false : { ...DEFAULT_LOOP_GUARD, ...(limits.loop ?? {}) };
  return withAgentLevelState(
    createMiddleware({
      name: LIMITS_MIDDLEWARE_NAME,
      stateSchema: new StateSchema({
        [BUDGET_KEY]: new ReducedValue(z.any().optional(), { reducer: mergeCounts as never }),
      }),
      wrapModelCall: async (request, handler) => {
        const context = contextOf(() => hookState(request));
        const hit = exceeded(context.live, limits);
        if (hit) return stop(context, hit);
        const outer = currentUsageScope();
        const scope: UsageScope = { records: [], ...(outer?.agent ? { agent: outer.agent } : {}) };
        const response = await withUsageScope(scope, () => handler(request));
        // The summarizer's calls reported here go on to a usage middleware outside this one.
        outer?.records.push(...scope.records);
        const own = usageOfReply(response, "main");
        const live = context.live.counts;
        live.modelCalls += 1 + scope.records.filter((r) => r.agent === "summarizer").length;
        for (const record of own ? [...scope.records, own] : scope.records) {
          live.tokens += record.input + record.output;
          live.costUsd += costUsd(record, resolvePrice(record.model)) ?? 0;
        }
        const reply = AIMessage.isInstance(response) ? response : undefined;
        const verdict = context.guard.observe((reply?.tool_calls ?? []) as never, loop);
        if (verdict.stop) return stop(context, verdict.stop, reply?.id);
        nudges.set(context, verdict.nudges);
        if (!reply || inSubagent()) return response;
        // The run goes on: a marker left by an earlier run of the thread is cleared.
        const counts = stateCopy(context.live);
        const update = context.marked ? { counts, limit: null } : counts;
        context.marked = false;
        return new Command({ update: { [BUDGET_KEY]: update } }) as never;
      },
      wrapToolCall: async (request, handler) => {
        const context = contextOf(() => hookState(request));
        const call = request.toolCall;
        const refusal = refuse(context, limits, call);
        if (refusal) return toolError(call, refusal);
        context.live.counts.toolCalls++;
        const timeoutMs = timeoutOf(request.tool, call?.name, limits);
        const run = () =>
          timeoutMs ? runWithTimeout(request, timeoutMs, handler) : handler(request);
        const result = await (call?.name === "task" ? withSubagentContext(context, run) : run());
        const note = call?.id ? nudges.get(context)?.get(call.id) : undefined;
        return (note ? withNote(result, note) : result) as never;
      },
    }) as AgentMiddleware,
  );
}

// The nudges of each agent's last reply, for its tool calls to append.
const nudges = new WeakMap<BudgetContext, Map<string, string>>();

interface Call {
  id?: string;
  name?: string;
}

// Why a tool call is not run, as the model reads it; undefined to run it.
function refuse(
  context: BudgetContext,
  limits: RunLimits,
  call: Call | undefined,
): string | undefined {
  const hit = exceeded(context.live, limits);
  if (hit) return `${hit.reason} Give your final answer with what you have.`;
  if (limits.toolCalls !== undefined && context.live.counts.toolCalls >= limits.toolCalls)
    return `The run's toolCalls budget (${limits.toolCalls}) is used up. Give your final answer with what you have.`;
  if (call?.name !== "task") return undefined;
  const depth = context.depth + 1;
  if (limits.subagentDepth !== undefined && depth > limits.subagentDepth)
    return `Subagents may nest ${limits.subagentDepth} level${limits.subagentDepth === 1 ? "" : "s"} deep; this task would be level ${depth}. Do the work yourself with your own tools.`;
  const index = call.id ? (context.guard.taskIndex.get(call.id) ?? 0) : 0;
  if (limits.subagentsPerTurn !== undefined && index >= limits.subagentsPerTurn)
    return `At most ${limits.subagentsPerTurn} task calls run per turn; this was call ${index + 1}. Wait for these results, then send the rest in fewer, larger tasks.`;
  if (
    limits.subagentsTotal !== undefined &&
    context.live.counts.subagentsTotal >= limits.subagentsTotal
  )
    return `The run's subagentsTotal budget (${limits.subagentsTotal}) is used up. Do the remaining work yourself, or give your answer.`;
  context.live.counts.subagentsTotal++;
  return undefined;
}

function toolError(call: Call | undefined, content: string): ToolMessage {
  return new ToolMessage({
    content: `Not run: ${content}`,
    tool_call_id: call?.id ?? "",
    name: call?.name ?? "",
    status: "error",
  });
}

/** The final message of a stopped run: which limit, what was done, how to continue. */
export function stopMessageText(
  hit: LimitHit,
  counts: { modelCalls: number; toolCalls: number; tokens: number },
): string {
  const next =
    hit.name === "loop" || hit.name === "stall"
      ? "Send a new message on this thread with a different instruction to continue."
      : `To continue, raise limits.${hit.name} and send a new message on this thread.`;
  return `${hit.reason} Done so far: ${counts.modelCalls} model calls, ${counts.toolCalls} tool calls, ${counts.tokens} tokens. ${next}`;
}

// Ends the agent's loop: a final AI message (replacing the reply, by id, when there was one)
// and, in the main agent, the marker and counts in the state.
function stop(context: BudgetContext, hit: LimitHit, replyId?: string): never {
  const counts = snapshot(context.live);
  const message = new AIMessage({
    content: stopMessageText(hit, counts),
    ...(replyId ? { id: replyId } : {}),
    response_metadata: { delve_limit: hit.name },
  });
  const update: Record<string, unknown> = { messages: [message] };
  if (!inSubagent())
    Object.assign(update, { [BUDGET_KEY]: { counts: stateCopy(context.live), limit: hit } });
  return new Command({ update }) as never;
}

function withNote(result: unknown, note: string): unknown {
  if (ToolMessage.isInstance(result)) return appendTo(result, note);
  if (isCommand(result)) {
    const update = (result.update ?? {}) as Record<string, unknown>;
    if (!Array.isArray(update.messages)) return result;
    const messages = update.messages.map((m) =>
      ToolMessage.isInstance(m) ? appendTo(m, note) : m,
    );
    return new Command({
      ...(result.goto !== undefined ? { goto: result.goto as never } : {}),
      update: { ...update, messages },
    });
  }
  return result;
}

function appendTo(message: ToolMessage, note: string): ToolMessage {
  if (typeof message.content !== "string") return message;
  return new ToolMessage({
    content: `${message.content}\n\n${note}`,
    tool_call_id: message.tool_call_id,
    name: message.name,
    status: message.status,
    artifact: message.artifact,
    id: message.id,
  });
}

/** The limit that stopped the run, from an agent state; undefined when none did. */
export function readLimitHit(state: unknown): LimitHit | undefined {
  const budget = (state as Record<string, unknown> | undefined)?.[BUDGET_KEY];
  const hit = (budget as { limit?: unknown } | undefined)?.limit;
  const parsed = hitSchema.safeParse(hit);
  return parsed.success ? parsed.data : undefined;
}
