import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes } from "node:crypto";
import { LoopGuard } from "./loop-guard.js";
import { BUDGET_KEY, type BudgetCounts, COUNTED, type LimitHit, type RunLimits } from "./types.js";

/**
 * The live count of one run, shared by the agent, its parallel tool calls and every
 * subagent (one object, so parallel branches never lose an increment); the state keeps a
 * copy, from which a resumed run starts.
 */
export interface LiveBudget {
  counts: BudgetCounts;
  /** When this run started, and the wall time the thread had used before it. */
  startedAt: number;
  wallBefore: number;
}

/** Where a model or tool call runs: the run's budget, its depth, its agent's loop guard. */
export interface BudgetContext {
  live: LiveBudget;
  /** 0 for the main agent, 1 inside a subagent, ... */
  depth: number;
  guard: LoopGuard;
}

const scopes = new AsyncLocalStorage<BudgetContext>();
// Runs by id, so parallel calls and a resume in this process share one counter; bounded.
const running = new Map<string, BudgetContext>();
const MAX_RUNNING = 1000;

/** The zero counts of a new thread. */
export function zeroCounts(): BudgetCounts {
  return { modelCalls: 0, toolCalls: 0, tokens: 0, costUsd: 0, wallMs: 0, subagentsTotal: 0 };
}

/** The counts in an agent state (from `invoke`, `getState().values`); zero when none. */
export function readBudget(state: unknown): BudgetCounts {
  const saved = (state as Record<string, unknown> | undefined)?.[BUDGET_KEY];
  const counts = zeroCounts();
  if (!saved || typeof saved !== "object") return counts;
  for (const key of Object.keys(counts) as (keyof BudgetCounts)[]) {
    const n = (saved as Record<string, unknown>)[key];
    if (typeof n === "number" && Number.isFinite(n) && n >= 0) (counts as any)[key] = n;
  }
  const run = (saved as { run?: unknown }).run;
  if (typeof run === "string") counts.run = run;
  return counts;
}

// Saved counts only grow, so the larger of two is the newer: a write replayed from the
// input, or two parallel branches, never lower a count. `limit` is the last one written.
export function mergeCounts(current: unknown, next: unknown): BudgetCounts & { limit?: unknown } {
  const limit = limitOf(next, limitOf(current, undefined));
  const merged = mergeNumbers(current, next);
  return limit ? { ...merged, limit } : merged;
}

function limitOf(value: unknown, fallback: unknown): unknown {
  if (!value || typeof value !== "object" || !Object.hasOwn(value, "limit")) return fallback;
  return (value as { limit?: unknown }).limit ?? undefined;
}

function mergeNumbers(current: unknown, next: unknown): BudgetCounts {
  if (!next) return readBudget({ [BUDGET_KEY]: current });
  const a = readBudget({ [BUDGET_KEY]: current });
  const b = readBudget({ [BUDGET_KEY]: next });
  const out = zeroCounts();
  for (const key of Object.keys(out) as (keyof BudgetCounts)[])
    (out as any)[key] = Math.max(a[key] as number, b[key] as number);
  const run = b.run ?? a.run;
  if (run) out.run = run;
  return out;
}

/**
 * Starts a run of the main agent from the counts its thread saved, under a new id, or under
 * `id` (a run resumed in another process: its parallel calls must find one counter).
 */
export function startRun(state: unknown, id?: string): BudgetContext {
  const counts = readBudget(state);
  counts.run = id ?? randomBytes(8).toString("base64url");
  const context: BudgetContext = {
    live: { counts, startedAt: Date.now(), wallBefore: counts.wallMs },
    depth: 0,
    guard: new LoopGuard(),
  };
  if (running.size >= MAX_RUNNING) running.delete(running.keys().next().value as string);
  running.set(counts.run, context);
  return context;
}

/**
 * The context of a call: a subagent's (opened by the parent's `task` call), else the main
 * agent's run in progress (by the id in its state), else a run resumed in a new process.
 */
export function contextOf(state: unknown): BudgetContext {
  const scoped = scopes.getStore();
  if (scoped) return scoped;
  const run = readBudget(state).run;
  const found = run ? running.get(run) : undefined;
  return found ?? startRun(state, run);
}

/** Whether a call runs inside a subagent. */
export function inSubagent(): boolean {
  return scopes.getStore() !== undefined;
}

/** Runs a subagent's `task` call with a context one level deeper, sharing the budget. */
export function withSubagentContext<T>(parent: BudgetContext, fn: () => T): T {
  return scopes.run({ live: parent.live, depth: parent.depth + 1, guard: new LoopGuard() }, fn);
}

/** The counts with the wall time brought up to now. */
export function snapshot(live: LiveBudget): BudgetCounts {
  live.counts.wallMs = live.wallBefore + (Date.now() - live.startedAt);
  return { ...live.counts };
}

/**
 * The counts as the state keeps them: zero counts left out, since every checkpoint of the
 * thread stores a copy (readBudget reads a missing count as 0).
 */
export function stateCopy(live: LiveBudget): Partial<BudgetCounts> {
  const counts = snapshot(live);
  return Object.fromEntries(Object.entries(counts).filter(([, v]) => v !== 0));
}

const UNITS: Record<string, string> = {
  modelCalls: "model calls",
  toolCalls: "tool calls",
  tokens: "tokens",
  costUsd: "USD",
  wallMs: "ms",
};

/** The first counted budget used up, if any. */
export function exceeded(live: LiveBudget, limits: RunLimits): LimitHit | undefined {
  const counts = snapshot(live);
  for (const name of COUNTED) {
    const value = limits[name];
    if (value === undefined || counts[name] < value) continue;
    return {
      name,
      value,
      used: counts[name],
      reason: `The run's ${name} budget (${value} ${UNITS[name]}) is used up (${round(counts[name])}).`,
    };
  }
  return undefined;
}

function round(n: number): number {
  return Math.round(n * 10_000) / 10_000;
}
