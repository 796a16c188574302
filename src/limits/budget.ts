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
  /** The thread's state held a `limit` marker when the run started, not yet cleared. */
  marked?: boolean;
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
  return decodeCounts((state as Record<string, unknown> | undefined)?.[BUDGET_KEY]);
}

// The counts in the order the state's compact form lists them (then the run id).
const ORDER = [
  "modelCalls",
  "toolCalls",
  "tokens",
  "costUsd",
  "wallMs",
  "subagentsTotal",
] as const satisfies readonly (keyof BudgetCounts)[];

/**
 * The counts as the state keeps them: one short string, "6 3 1500 0.02 1002 0 <run>", since
 * every checkpoint of the thread stores the channel (an object with named keys cost ~3x).
 */
export function encodeCounts(counts: BudgetCounts): string {
  const numbers = ORDER.map((key) => String(counts[key]));
  return counts.run ? `${numbers.join(" ")} ${counts.run}` : numbers.join(" ");
}

// The counts from a saved value: the compact string, `{ counts, limit }` after a limit was
// hit, or the object of earlier versions (`{ modelCalls: 3, ... }`).
function decodeCounts(saved: unknown): BudgetCounts {
  const counts = zeroCounts();
  if (saved && typeof saved === "object" && typeof (saved as any).counts === "string")
    saved = (saved as { counts: string }).counts;
  if (typeof saved === "string") {
    const parts = saved.split(" ");
    ORDER.forEach((key, i) => {
      const n = Number(parts[i]);
      if (Number.isFinite(n) && n >= 0) counts[key] = n;
    });
    if (parts[ORDER.length]) counts.run = parts[ORDER.length];
    return counts;
  }
  if (!saved || typeof saved !== "object") return counts;
  for (const key of ORDER) {
    const n = (saved as Record<string, unknown>)[key];
    if (typeof n === "number" && Number.isFinite(n) && n >= 0) counts[key] = n;
  }
  const run = (saved as { run?: unknown }).run;
  if (typeof run === "string") counts.run = run;
  return counts;
}

/**
 * The channel's reducer. Saved counts only grow, so the larger of two is the newer: a write
 * replayed from the input, or two parallel branches, never lower a count. `limit` is the
 * last one written (`null` clears it). The result is the compact form.
 */
export function mergeCounts(
  current: unknown,
  next: unknown,
): string | { counts: string; limit: unknown } {
  const limit = limitOf(next, limitOf(current, undefined));
  const merged = mergeNumbers(current, next);
  return limit ? { counts: encodeCounts(merged), limit } : encodeCounts(merged);
}

function limitOf(value: unknown, fallback: unknown): unknown {
  if (!value || typeof value !== "object" || !Object.hasOwn(value, "limit")) return fallback;
  return (value as { limit?: unknown }).limit ?? undefined;
}

function mergeNumbers(current: unknown, next: unknown): BudgetCounts {
  const a = decodeCounts(current);
  if (!next) return a;
  const b = decodeCounts(next);
  const out = zeroCounts();
  for (const key of ORDER) out[key] = Math.max(a[key], b[key]);
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
    marked: hasLimitMarker(state),
  };
  if (running.size >= MAX_RUNNING) running.delete(running.keys().next().value as string);
  running.set(counts.run, context);
  return context;
}

// One `invoke` or `stream` of the agent (withRunScopes): its run starts at its first call.
const invokes = new AsyncLocalStorage<{ context?: BudgetContext }>();

// Whether a saved budget value carries a limit marker (`{ counts, limit }` with a limit set).
function hasLimitMarker(state: unknown): boolean {
  const budget = (state as Record<string, unknown> | undefined)?.[BUDGET_KEY];
  return Boolean(budget && typeof budget === "object" && (budget as { limit?: unknown }).limit);
}

/**
 * The context of a call: a subagent's (opened by the parent's `task` call), else the run of
 * this `invoke` (started from the thread's saved counts at its first call), else the main
 * agent's run in progress (by the id in its state), else a run resumed in a new process.
 * `readState` is called only when a run starts or is looked up (not on every call).
 */
export function contextOf(readState: () => unknown): BudgetContext {
  const scoped = scopes.getStore();
  if (scoped) return scoped;
  const invoke = invokes.getStore();
  if (invoke) {
    invoke.context ??= startRun(readState());
    return invoke.context;
  }
  const state = readState();
  const run = readBudget(state).run;
  const found = run ? running.get(run) : undefined;
  return found ?? startRun(state, run);
}

/**
 * Makes each `invoke` and `stream` of the agent one run for the budgets: a fresh live
 * counter from the thread's saved counts (no graph node needed, so no checkpoint entry).
 */
export function withRunScopes<T extends object>(agent: T): T {
  const target = agent as {
    invoke?: (...args: unknown[]) => Promise<unknown>;
    stream?: (...args: unknown[]) => Promise<unknown>;
  };
  const invoke = target.invoke?.bind(agent);
  const stream = target.stream?.bind(agent);
  if (invoke) target.invoke = (...args) => invokes.run({}, () => invoke(...args));
  if (stream) {
    target.stream = (...args) => {
      const scope = {};
      return invokes.run(scope, async () => {
        const result = (await stream(...args)) as { next?: (...a: unknown[]) => unknown };
        // The graph runs as the stream is read: each read runs in the same scope.
        const next = result?.next?.bind(result);
        if (next) result.next = (...a: unknown[]) => invokes.run(scope, () => next(...a));
        return result;
      });
    };
  }
  return agent;
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

/** The counts as the state keeps them (`encodeCounts`), the wall time brought up to now. */
export function stateCopy(live: LiveBudget): string {
  return encodeCounts(snapshot(live));
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
