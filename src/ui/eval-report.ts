// `delve ui --eval report.json`: the viewer over an eval report (what `delve eval --json`
// writes). A report is a file anyone may have written: it is checked for its format, served
// as data only, and the page puts every string of it into text nodes.
import fs from "node:fs";
import { Hono } from "hono";
import type { EvalReport, RunReport, TaskReport } from "../evals/report.js";
import { guard } from "./guard.js";
import { pageAsset } from "./page-assets.js";

/** A file that is not a report `delve eval --json` wrote (the CLI prints it, exit 2). */
export class NotAnEvalReportError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`${file}: not an eval report written by delve eval --json (${reason}).`);
    this.name = "NotAnEvalReportError";
  }
}

/** Reads and checks an eval report file. */
export function readEvalReport(file: string): EvalReport {
  let parsed: any;
  try {
    parsed = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    throw new NotAnEvalReportError(file, (error as Error).message);
  }
  if (parsed?.format !== "delve-eval-report") throw new NotAnEvalReportError(file, "no format");
  if (!Array.isArray(parsed.tasks)) throw new NotAnEvalReportError(file, "no tasks list");
  return parsed;
}

// A number from an untrusted file: anything else becomes null.
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

function costOf(task: TaskReport): number | null {
  let sum = 0;
  for (const run of task.runs ?? []) {
    const c = num(run.cost);
    if (c === null) return null;
    sum += c;
  }
  return sum;
}

/** One task's row in the list: its verdict, pass rate, cost over its runs and first reason. */
function taskRow(task: TaskReport) {
  const runs: RunReport[] = Array.isArray(task.runs) ? task.runs : [];
  return {
    id: String(task.id),
    pass: task.pass === true,
    pass_rate: num(task.passRate),
    reason: typeof task.reason === "string" ? task.reason : null,
    runs: runs.length,
    model_calls: runs.reduce((n, r) => n + (num(r.modelCalls) ?? 0), 0),
    tokens: runs.reduce((n, r) => n + (num(r.usage?.total) ?? 0), 0),
    cost_usd: costOf(task),
  };
}

/** The Hono app of `delve ui --eval`: the report's summary, its tasks, one task's runs. */
export function evalApp(report: EvalReport, options: { hosts: () => Set<string>; token?: string }) {
  const app = new Hono();
  app.use("*", guard(options));
  app.onError((error, c) => c.json({ error: error.message }, 500));
  app.get("/api/info", (c) => c.json({ mode: "eval" }));
  app.get("/api/eval", (c) => {
    const s: any = report.summary ?? {};
    return c.json({
      task_set: String(report.taskSet ?? ""),
      model: typeof report.model === "string" ? report.model : null,
      mode: String(report.mode ?? ""),
      repeat: num(report.repeat),
      started_at: String(report.startedAt ?? ""),
      ms: num(report.ms),
      summary: {
        tasks: num(s.tasks),
        passed: num(s.passed),
        failed: num(s.failed),
        pass_rate: num(s.passRate),
        model_calls: num(s.modelCalls),
        tokens: num(s.usage?.total),
        cost_usd: num(s.cost),
      },
      tasks: report.tasks.map(taskRow),
    });
  });
  app.get("/api/eval/tasks/:id", (c) => {
    const task = report.tasks.find((t) => String(t.id) === c.req.param("id"));
    if (!task) return c.json({ error: "no such task in this report" }, 404);
    return c.json({ ...taskRow(task), detail: task.runs ?? [] });
  });
  app.get("/", (c) => pageAsset(c, "index.html"));
  app.get("/app.js", (c) => pageAsset(c, "app.js"));
  app.get("/style.css", (c) => pageAsset(c, "style.css"));
  return { app, close: async () => {} };
}
