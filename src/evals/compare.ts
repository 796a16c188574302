import { type EvalReport, meanOf, type TaskReport } from "./report.js";

/** A task whose verdict changed between two reports. */
export interface FlippedTask {
  id: string;
  from: "pass" | "fail";
  to: "pass" | "fail";
  /** Why it fails now (for a regression). */
  reason?: string;
}

/** A per-task measure that moved: mean model calls, tool errors, tokens, cost, pass rate. */
export interface MovedBudget {
  id: string;
  metric: "modelCalls" | "toolErrors" | "tokens" | "cost" | "passRate";
  before: number;
  after: number;
}

/** What `compareReports` finds. */
export interface ReportComparison {
  /** Passed before, fail now. */
  regressed: FlippedTask[];
  /** Failed before, pass now. */
  fixed: FlippedTask[];
  /** Every flip, in task order. */
  flipped: FlippedTask[];
  moved: MovedBudget[];
  added: string[];
  removed: string[];
  passRate: { before: number; after: number };
}

const METRICS: Array<[MovedBudget["metric"], (t: TaskReport) => number]> = [
  ["passRate", (t) => t.passRate],
  ["modelCalls", (t) => meanOf(t, (r) => r.modelCalls)],
  ["toolErrors", (t) => meanOf(t, (r) => r.toolErrors)],
  ["tokens", (t) => meanOf(t, (r) => r.usage.total)],
  ["cost", (t) => meanOf(t, (r) => r.cost)],
];

const finite = (value: unknown): value is number =>
  typeof value === "number" && Number.isFinite(value);
const numberOrNaN = (value: unknown) => (finite(value) ? value : Number.NaN);

/**
 * Compares two reports of the same task set: the tasks that flipped (regressed or fixed),
 * the per-task budgets that moved (mean model calls, tool errors, tokens, cost, pass rate),
 * and the tasks added or removed. `before` may come from a file: a measure in it that is not
 * a finite number is left out of `moved`, and its pass rate is then `NaN`.
 *
 * @example
 * const diff = compareReports(JSON.parse(readFileSync("before.json", "utf8")), report);
 * for (const t of diff.regressed) console.log(`${t.id} now fails: ${t.reason}`);
 */
export function compareReports(before: EvalReport, after: EvalReport): ReportComparison {
  const old = new Map(before.tasks.map((t) => [t.id, t]));
  const now = new Map(after.tasks.map((t) => [t.id, t]));
  const flipped: FlippedTask[] = [];
  const moved: MovedBudget[] = [];
  for (const task of after.tasks) {
    const prev = old.get(task.id);
    if (!prev) continue;
    if (prev.pass !== task.pass) {
      flipped.push({
        id: task.id,
        from: prev.pass ? "pass" : "fail",
        to: task.pass ? "pass" : "fail",
        ...(!task.pass && task.reason ? { reason: task.reason } : {}),
      });
    }
    for (const [metric, measure] of METRICS) {
      const a = measure(prev);
      const b = measure(task);
      // The previous report is read from a file: a measure that is not a number is not compared.
      if (!finite(a) || !finite(b)) continue;
      if (a !== b) moved.push({ id: task.id, metric, before: a, after: b });
    }
  }
  return {
    regressed: flipped.filter((f) => f.to === "fail"),
    fixed: flipped.filter((f) => f.to === "pass"),
    flipped,
    moved,
    added: after.tasks.filter((t) => !old.has(t.id)).map((t) => t.id),
    removed: before.tasks.filter((t) => !now.has(t.id)).map((t) => t.id),
    passRate: { before: numberOrNaN(before.summary?.passRate), after: after.summary.passRate },
  };
}
