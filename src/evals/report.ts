import type { TokenUsage, TrajectoryEvent } from "./types.js";

/** One expectation's verdict in a report. */
export interface ExpectationVerdict {
  label: string;
  pass: boolean;
  reason?: string;
}

/** One run of one task. */
export interface RunReport {
  run: number;
  pass: boolean;
  /** Why it failed: each failed expectation's reason, or the error that stopped the run. */
  reasons: string[];
  expectations: ExpectationVerdict[];
  /** The error that stopped the run (a cassette drift, a crash), if any. */
  error?: string;
  trajectory: TrajectoryEvent[];
  answer: string;
  usage: TokenUsage;
  /** USD, when every priced call had a price. */
  cost?: number;
  modelCalls: number;
  toolErrors: number;
  ms: number;
}

/** One task over its runs. */
export interface TaskReport {
  id: string;
  /** True when every run passed. */
  pass: boolean;
  /** Passed runs / runs. */
  passRate: number;
  /** The first failing run's first reason. */
  reason?: string;
  runs: RunReport[];
}

/** What `runTaskSet` returns and `delve eval --json` writes. */
export interface EvalReport {
  format: "delve-eval-report";
  version: 1;
  taskSet: string;
  model?: string;
  mode: "live" | "record" | "replay";
  repeat: number;
  startedAt: string;
  ms: number;
  summary: {
    tasks: number;
    passed: number;
    failed: number;
    passRate: number;
    modelCalls: number;
    usage: TokenUsage;
    cost?: number;
  };
  tasks: TaskReport[];
}

/** Mean over runs of a numeric field, rounded to 2 decimals. */
export function meanOf(task: TaskReport, pick: (run: RunReport) => number | undefined): number {
  const values = task.runs.map(pick).filter((v): v is number => typeof v === "number");
  if (values.length === 0) return 0;
  return Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 100) / 100;
}
