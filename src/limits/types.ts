import { ConfigurationError } from "../errors/configuration-error.js";

/** The name of the layer that keeps the budgets and the loop guard. */
export const LIMITS_MIDDLEWARE_NAME = "LimitsMiddleware";

/**
 * The state key holding the run's counts (`readBudget`) and, under `limit`, the limit that
 * stopped the run (`readLimitHit`): one channel, since every checkpoint stores each channel.
 */
export const BUDGET_KEY = "budget";

/**
 * The loop and stall guard. A call (name and arguments) made `repeats` times, or
 * `stallTurns` turns in a row with no call not made before, gets a note in its result;
 * two turns later the run stops.
 */
export interface LoopGuardSettings {
  /** Identical calls before the nudge (default 4; measured runs repeat a call at most 2 times). */
  repeats?: number;
  /** Turns in a row with only repeated calls before the nudge (default 6). */
  stallTurns?: number;
}

/**
 * Budgets for a whole run, counted across the agent, every subagent and the summarizer, and
 * kept in the thread's state: a resumed run continues the count. Each is off when absent.
 */
export interface RunLimits {
  /** Model calls (the agent's, subagents', summarizer's). */
  modelCalls?: number;
  /** Tool calls, `task` included. */
  toolCalls?: number;
  /** Input plus output tokens, as the providers report them. */
  tokens?: number;
  /** Cost from the price table; calls of unpriced models count 0. */
  costUsd?: number;
  /** Milliseconds the runs of the thread have taken, summed over resumes. */
  wallMs?: number;
  /** How deep `task` may nest at run time (1: subagents, no sub-subagents). */
  subagentDepth?: number;
  /** `task` calls one model turn may make. */
  subagentsPerTurn?: number;
  /** `task` calls in the whole run. */
  subagentsTotal?: number;
  /**
   * Milliseconds any tool call (except `task`) may take; a tool's own `metadata.timeoutMs`
   * wins. Past it the tool's signal is aborted and the model gets an error. Default none.
   */
  toolTimeoutMs?: number;
  /** The loop and stall guard: settings, or false to turn it off. Default on. */
  loop?: LoopGuardSettings | false;
}

/** The budgets that count up while the run goes. */
export const COUNTED = ["modelCalls", "toolCalls", "tokens", "costUsd", "wallMs"] as const;

/** What the run has used so far, as kept in the state. */
export interface BudgetCounts {
  modelCalls: number;
  toolCalls: number;
  tokens: number;
  costUsd: number;
  wallMs: number;
  subagentsTotal: number;
  /** The current run's id (finds the live counter of a run in progress). */
  run?: string;
}

/** The limit that stopped the run: which, its value, what was used. */
export interface LimitHit {
  /** A budget name (`modelCalls`, ...), `loop`, `stall` or `recursionLimit`. */
  name: string;
  value: number;
  used: number;
  /** One sentence for people: what stopped and how to continue. */
  reason: string;
}

/** Loop guard defaults: chosen from the scripted runs measured in docs/limits.md. */
export const DEFAULT_LOOP_GUARD: Required<LoopGuardSettings> = { repeats: 4, stallTurns: 6 };

const KEYS = [
  ...COUNTED,
  "subagentDepth",
  "subagentsPerTurn",
  "subagentsTotal",
  "toolTimeoutMs",
  "loop",
];

/** Checks `limits` at construction: known keys, numbers > 0 (whole where counted). */
export function validateLimits(limits: unknown): RunLimits {
  if (limits === undefined) return {};
  if (!limits || typeof limits !== "object" || Array.isArray(limits))
    throw invalid("limits must be an object such as { modelCalls: 200, tokens: 2_000_000 }.");
  for (const [key, value] of Object.entries(limits)) {
    if (!KEYS.includes(key))
      throw invalid(`limits.${key} is not a limit. Known: ${KEYS.join(", ")}.`);
    if (key === "loop") {
      validateLoop(value);
      continue;
    }
    const whole = key !== "costUsd";
    if (typeof value !== "number" || !(value > 0) || (whole && !Number.isInteger(value)))
      throw invalid(`limits.${key} must be a ${whole ? "whole number" : "number"} > 0.`);
  }
  return limits as RunLimits;
}

function validateLoop(value: unknown): void {
  if (value === false || value === undefined) return;
  if (!value || typeof value !== "object")
    throw invalid("limits.loop must be false or { repeats, stallTurns }.");
  for (const [key, n] of Object.entries(value)) {
    if (key !== "repeats" && key !== "stallTurns")
      throw invalid(`limits.loop.${key} is not a setting. Known: repeats, stallTurns.`);
    if (typeof n !== "number" || !Number.isInteger(n) || n < 2)
      throw invalid(`limits.loop.${key} must be a whole number >= 2.`);
  }
}

function invalid(message: string): ConfigurationError {
  return new ConfigurationError("INVALID_OPTION", message);
}
