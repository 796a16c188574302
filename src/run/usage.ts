import { randomBytes } from "node:crypto";
import { AIMessage } from "@langchain/core/messages";
import { Command, DeltaValue, isCommand, ReducedValue, StateSchema } from "@langchain/langgraph";
import { type AgentMiddleware, createMiddleware } from "langchain";
import { z } from "zod";
import { withAgentLevelState } from "../agent/hook-state.js";
import { DEFAULT_SNAPSHOT_EVERY } from "../checkpoint/delta-state.js";
import { llmTypeOf } from "../langchain-seam/chat-models.js";
import {
  currentUsageScope,
  type ScopedUsage,
  type UsageScope,
  usageOfReply,
  withUsageScope,
} from "../models/usage-scope.js";
import type { RunUsage } from "./events.js";
import { costUsd, type ModelPrice, resolvePrice } from "./prices.js";

/**
 * Token usage kept in the thread's state: one record per model call (the agent's, each
 * subagent's, the summarizer's), in the `usage` channel, so a resumed thread and
 * `threads show` report the whole run.
 */

/**
 * One model call's usage. `input` counts every prompt token, cache reads and writes
 * included (LangChain's `usage_metadata` convention; see `TokenCounts` in prices.ts), and
 * `model` is "provider:model" as the provider reported it (a dated snapshot id, if so).
 */
export interface UsageRecord extends ScopedUsage {
  /** A short random id, so a record written back twice is kept once. */
  id?: string;
}

/** The state channel holding the records. */
export const USAGE_KEY = "usage";

/** The middleware's name. */
export const USAGE_MIDDLEWARE_NAME = "UsageMiddleware";

const recordSchema = z.object({
  model: z.string(),
  agent: z.string(),
  input: z.number(),
  output: z.number(),
  cacheRead: z.number().optional(),
  cacheWrite: z.number().optional(),
  id: z.string().optional(),
});

// Appends records not seen yet (by id): LangChain's agent invoke writes the thread's current
// values back as input, which must not count a call twice. Batching-invariant, as a delta
// channel needs.
function appendRecords(state: readonly UsageRecord[], writes: readonly unknown[]): UsageRecord[] {
  const out = [...(state ?? [])];
  const seen = new Set(out.map((r) => r.id).filter(Boolean));
  for (const write of writes) {
    for (const record of Array.isArray(write) ? write : [write]) {
      if (!record || typeof record !== "object") continue;
      const id = (record as UsageRecord).id;
      if (id && seen.has(id)) continue;
      if (id) seen.add(id);
      out.push(record as UsageRecord);
    }
  }
  return out;
}

const recordsSchema = () => z.array(recordSchema).default(() => []);

/**
 * The `usage` channel as a delta channel, for `createDeepAgent`'s `stateSchema`: a checkpoint
 * then stores the records a step added (about 80 bytes each), not the whole list. Without it
 * the middleware's own channel stores the whole list at every step.
 *
 * @example
 * createDeepAgent({ model, middleware: [usageMiddleware()], stateSchema: usageStateSchema() })
 */
export function usageStateSchema(snapshotEvery = DEFAULT_SNAPSHOT_EVERY): StateSchema<any> {
  return new StateSchema({
    [USAGE_KEY]: new DeltaValue(recordsSchema(), {
      inputSchema: z.array(recordSchema).optional(),
      reducer: appendRecords as never,
      snapshotFrequency: snapshotEvery,
    }),
  });
}

function withId(record: ScopedUsage): UsageRecord {
  return { ...record, id: randomBytes(6).toString("base64url") };
}

function modelNameOf(model: unknown): string | undefined {
  const m = model as { model?: unknown; modelName?: unknown };
  const name =
    typeof m?.model === "string"
      ? m.model
      : typeof m?.modelName === "string"
        ? m.modelName
        : undefined;
  if (!name) return undefined;
  let provider: string | undefined;
  try {
    provider = llmTypeOf(model) || undefined;
  } catch {}
  return provider ? `${provider}:${name}` : name;
}

/**
 * Records the usage of every model call in the `usage` state channel. Put it in
 * `createDeepAgent`'s `middleware`: subagents built from the same stack inherit it, and it
 * carries their records (tagged with the subagent's name) back through the `task` call, and
 * the summarizer's (tagged "summarizer") through the model call that triggered it. A call
 * whose reply carries no `usage_metadata` adds no record; a structured-response call's usage
 * is not recorded (its reply cannot carry a state update).
 */
export function usageMiddleware(): AgentMiddleware {
  return withAgentLevelState(
    createMiddleware({
      name: USAGE_MIDDLEWARE_NAME,
      // A reduced value here, since LangChain's middleware state cannot hold a delta channel;
      // `usageStateSchema()` in the agent's `stateSchema` replaces it with one.
      stateSchema: new StateSchema({
        [USAGE_KEY]: new ReducedValue(recordsSchema(), {
          inputSchema: z.array(recordSchema).optional(),
          reducer: (current: UsageRecord[], next?: UsageRecord[]) =>
            appendRecords(current, [next ?? []]),
        }),
      }),
      wrapModelCall: async (request, handler) => {
        const outer = currentUsageScope();
        const scope: UsageScope = { records: [] };
        const response = await withUsageScope(scope, () => handler(request));
        const own = usageOfReply(response, outer?.agent ?? "main", modelNameOf(request.model));
        const records = (own ? [...scope.records, own] : scope.records).map(withId);
        if (records.length === 0) return response;
        // A subagent's records also go to the `task` call that runs it, for the parent's state.
        outer?.records.push(...records);
        if (!AIMessage.isInstance(response)) return response;
        // LangChain keeps the reply as the step's message and applies this update beside it.
        return new Command({ update: { [USAGE_KEY]: records } }) as never;
      },
      wrapToolCall: async (request, handler) => {
        const args = (request.toolCall?.args ?? {}) as Record<string, unknown>;
        if (request.toolCall?.name !== "task" || typeof args.subagent_type !== "string")
          return handler(request);
        const outer = currentUsageScope();
        const scope: UsageScope = { records: [], agent: args.subagent_type };
        const result = await withUsageScope(scope, () => handler(request));
        if (scope.records.length === 0) return result;
        outer?.records.push(...scope.records);
        return withUsage(result, scope.records) as never;
      },
    }) as AgentMiddleware,
  );
}

// Adds records to a tool result: a Command gains a `usage` update, a message becomes one.
function withUsage(result: unknown, records: UsageRecord[]): Command {
  if (isCommand(result)) {
    const update = (result.update ?? {}) as Record<string, unknown>;
    const previous = Array.isArray(update[USAGE_KEY]) ? (update[USAGE_KEY] as UsageRecord[]) : [];
    return new Command({
      ...(result.goto !== undefined ? { goto: result.goto as never } : {}),
      ...(result.graph !== undefined ? { graph: result.graph } : {}),
      update: { ...update, [USAGE_KEY]: [...previous, ...records] },
    });
  }
  return new Command({ update: { messages: [result], [USAGE_KEY]: records } });
}

/** The usage records in an agent state (from `invoke`, `getState().values`); [] when none. */
export function readUsage(state: unknown): UsageRecord[] {
  const list = (state as Record<string, unknown> | undefined)?.[USAGE_KEY];
  if (!Array.isArray(list)) return [];
  return list.filter((r): r is UsageRecord => recordSchema.safeParse(r).success);
}

/** Token totals of a group of records, with their cost when every record's price is known. */
export interface UsageTotals {
  calls: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** Undefined when any record's model has no known price: a partial sum would mislead. */
  costUsd?: number;
}

/** A run's usage: overall, per model and per agent. */
export interface UsageSummary {
  total: UsageTotals;
  byModel: Record<string, UsageTotals>;
  byAgent: Record<string, UsageTotals>;
  /** Models that have no price, so the cost is unknown. */
  unpricedModels: string[];
}

function empty(): UsageTotals {
  return { calls: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, costUsd: 0 };
}

function group(groups: Record<string, UsageTotals>, key: string): UsageTotals {
  // defineProperty: a model or agent named "__proto__" stays a plain key.
  if (!Object.hasOwn(groups, key))
    Object.defineProperty(groups, key, { value: empty(), enumerable: true, writable: true });
  return groups[key]!;
}

function add(totals: UsageTotals, record: UsageRecord, cost: number | undefined): void {
  totals.calls++;
  totals.input += record.input;
  totals.output += record.output;
  totals.cacheRead += record.cacheRead ?? 0;
  totals.cacheWrite += record.cacheWrite ?? 0;
  totals.costUsd =
    totals.costUsd === undefined || cost === undefined ? undefined : totals.costUsd + cost;
}

/**
 * Totals per model and per agent, priced with `prices` over the shipped table. A group's
 * cost is undefined as soon as one of its calls has no known price.
 */
export function summarizeUsage(
  records: readonly UsageRecord[],
  prices?: Record<string, ModelPrice>,
): UsageSummary {
  const summary: UsageSummary = { total: empty(), byModel: {}, byAgent: {}, unpricedModels: [] };
  for (const record of records) {
    const cost = costUsd(record, resolvePrice(record.model, prices));
    if (cost === undefined && !summary.unpricedModels.includes(record.model))
      summary.unpricedModels.push(record.model);
    add(summary.total, record, cost);
    add(group(summary.byModel, record.model), record, cost);
    add(group(summary.byAgent, record.agent), record, cost);
  }
  return summary;
}

/**
 * A thread's tokens summed and its USD cost (null once a record's price is unknown), as the
 * run's `result` reports them. A record without a provider prefix is priced as `model`, the
 * thread's configured "provider:model".
 */
export function threadTotals(
  records: readonly UsageRecord[],
  model: string,
  prices?: Record<string, ModelPrice>,
): { usage: RunUsage; cost_usd: number | null } {
  const usage: RunUsage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  let cost: number | null = 0;
  for (const r of records) {
    usage.input += r.input;
    usage.output += r.output;
    usage.cacheRead += r.cacheRead ?? 0;
    usage.cacheWrite += r.cacheWrite ?? 0;
    const c = costUsd(r, resolvePrice(r.model.includes(":") ? r.model : model, prices));
    cost = c === undefined || cost === null ? null : cost + c;
  }
  return { usage, cost_usd: cost };
}
