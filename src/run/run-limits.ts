// The limits (and options) of one `send` or `decide` of a run session, and what a run they
// stop says.
import type { RunResult } from "./events.js";

/** The limits of one `send` or `decide`. */
export interface RunLimits {
  maxTurns?: number;
  timeoutMs?: number;
  maxCostUsd?: number;
  /** Aborting it ends the run with status `limit`, limit `interrupted`; the thread is kept. */
  signal?: AbortSignal;
  /**
   * Also yield `text_delta` events while the model writes (its calls are made streaming).
   * Not a limit, but an option of the same one run.
   */
  textDeltas?: boolean;
}

/** What a run stopped by one of its own limits says, naming the flag and how to continue. */
export const LIMIT_TEXT: Record<
  Exclude<RunResult["limit"], "agent" | undefined>,
  (l: RunLimits) => string
> = {
  max_turns: (l) => `stopped at --max-turns ${l.maxTurns}; continue with delve run -c`,
  timeout: (l) => `stopped at --timeout ${(l.timeoutMs ?? 0) / 1000}s; continue with delve run -c`,
  max_cost: (l) => `stopped at --max-cost ${l.maxCostUsd} USD; continue with delve run -c`,
  interrupted: () => "interrupted; the thread is kept",
};
