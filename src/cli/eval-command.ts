import { readFileSync, writeFileSync } from "node:fs";
import {
  compareReports,
  type EvalProgress,
  type EvalReport,
  isTaskSet,
  type ReportComparison,
  renderHtmlReport,
  runTaskSet,
} from "../evals/index.js";
import { importModule } from "../run/build-agent.js";
import { type ParsedArgs, parseCommand } from "./args.js";
import { COMMANDS } from "./commands.js";

const EVAL_SPEC = COMMANDS.find((c) => c.name === "eval")!;

/** The usage line of `delve eval`. */
export const EVAL_USAGE = EVAL_SPEC.usage;

/** Parsed `delve eval` arguments: the module and each flag's value by name. */
export interface EvalArgs {
  module: string;
  flags: Record<string, string>;
  /** `--only`, repeatable. */
  only?: string[];
}

/** Checks `delve eval` arguments (parsed by `util.parseArgs`); a string is the usage error to print. */
export function parseEvalArgs(args: string[] | ParsedArgs): EvalArgs | string {
  let parsed: ParsedArgs;
  try {
    parsed = Array.isArray(args) ? parseCommand(EVAL_SPEC, args) : args;
  } catch (error) {
    return (error as Error).message;
  }
  const flags: Record<string, string> = {};
  for (const [name, value] of Object.entries(parsed.values)) {
    if (typeof value === "string") flags[name] = value;
  }
  const module = parsed.positionals[0];
  if (!module) return "name the module whose default export is your task set";
  if (flags.record && flags.replay) return "use --record or --replay, not both";
  if (!flags.model && !flags.replay) return "give --model provider:model, or --replay a cassette";
  const only = parsed.values.only as string[] | undefined;
  return { module, flags, ...(only?.length ? { only } : {}) };
}

/** One line of the progress bar shown on a terminal: `[#####-----] 3/6 task-id`. */
export function progressBar(p: EvalProgress, width = 24): string {
  const filled = Math.round((p.done / p.total) * width);
  return `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${p.done}/${p.total} ${p.task}`;
}

/** The table printed when the run ends: one row per task, the reason under a failed one. */
export function resultTable(report: EvalReport): string {
  const width = Math.max(4, ...report.tasks.map((t) => t.id.length));
  const mean = (values: number[]) =>
    values.length ? Math.round(values.reduce((a, b) => a + b, 0) / values.length) : 0;
  const lines = [`${"task".padEnd(width)}  result  runs  calls  errors  tokens    time`];
  for (const t of report.tasks) {
    const passed = t.runs.filter((r) => r.pass).length;
    lines.push(
      [
        t.id.padEnd(width),
        (t.pass ? "pass" : "FAIL").padEnd(6),
        `${passed}/${t.runs.length}`.padStart(4),
        String(mean(t.runs.map((r) => r.modelCalls))).padStart(5),
        String(mean(t.runs.map((r) => r.toolErrors))).padStart(6),
        String(mean(t.runs.map((r) => r.usage.total))).padStart(6),
        `${mean(t.runs.map((r) => r.ms))} ms`.padStart(7),
      ].join("  "),
    );
    if (t.reason) lines.push(`${" ".repeat(width)}  -> ${t.reason}`);
  }
  const s = report.summary;
  lines.push(
    "",
    `${s.tasks} tasks: ${s.passed} passed, ${s.failed} failed · ${s.modelCalls} model calls · ${s.usage.total} tokens${s.cost !== undefined ? ` · $${s.cost.toFixed(4)}` : ""} · ${report.ms} ms (${report.mode})`,
  );
  return lines.join("\n");
}

// The previous report's pass rate may be NaN (not a number in its file).
const percent = (n: number) => (Number.isFinite(n) ? `${Math.round(n * 100)}%` : "?");

function comparisonText(c: ReportComparison): string {
  const lines = [
    `compared with the previous report: pass rate ${percent(c.passRate.before)} -> ${percent(c.passRate.after)}`,
  ];
  for (const f of c.regressed)
    lines.push(`  regressed: ${f.id}${f.reason ? ` (${f.reason})` : ""}`);
  for (const f of c.fixed) lines.push(`  fixed: ${f.id}`);
  for (const m of c.moved) lines.push(`  moved: ${m.id} ${m.metric} ${m.before} -> ${m.after}`);
  for (const id of c.added) lines.push(`  new task: ${id}`);
  for (const id of c.removed) lines.push(`  removed task: ${id}`);
  return lines.join("\n");
}

/**
 * `delve eval <module>`: runs the task set the module exports by default and prints a table;
 * exit code 1 when a task fails, 2 for a usage error.
 */
export async function evalCommand(args: string[] | ParsedArgs): Promise<number> {
  const parsed = parseEvalArgs(args);
  if (typeof parsed === "string") {
    console.error(`delve eval: ${parsed.replace(/\.$/, "")}.\nUsage: ${EVAL_USAGE}`);
    return 2;
  }
  const { module: file, flags } = parsed;
  let prices: Record<string, { input: number; output: number }> | undefined;
  if (flags.prices) {
    try {
      prices = JSON.parse(readFileSync(flags.prices, "utf8"));
    } catch (error) {
      console.error(
        `delve eval: cannot read --prices ${flags.prices}: ${(error as Error).message}`,
      );
      return 2;
    }
  }
  const loaded = await importModule(file);
  const taskSet = typeof loaded.default === "function" ? await loaded.default() : loaded.default;
  if (!isTaskSet(taskSet)) {
    console.error(
      `delve eval: the default export of ${file} is not a task set made by defineTaskSet.`,
    );
    return 2;
  }
  let previous: EvalReport | undefined;
  if (flags.compare) {
    try {
      previous = JSON.parse(readFileSync(flags.compare, "utf8"));
    } catch (error) {
      console.error(
        `delve eval: cannot read --compare ${flags.compare}: ${(error as Error).message}`,
      );
      return 2;
    }
    if (previous?.format !== "delve-eval-report") {
      console.error(`delve eval: ${flags.compare} is not a report written by delve eval --json.`);
      return 2;
    }
  }
  const tty = process.stderr.isTTY === true;
  const report = await runTaskSet(taskSet, {
    ...(flags.model ? { model: flags.model } : {}),
    ...(flags.record ? { record: flags.record } : {}),
    ...(flags.replay ? { replay: flags.replay } : {}),
    ...(flags.repeat ? { repeat: Number(flags.repeat) } : {}),
    ...(parsed.only ? { only: parsed.only } : {}),
    ...(prices ? { prices } : {}),
    ...(flags.judge ? { judge: flags.judge } : {}),
    onProgress: (p) => {
      if (tty) process.stderr.write(`\r\x1b[2K${progressBar(p)}`);
      else
        console.error(
          `${p.pass ? "ok  " : "FAIL"} ${p.task}${p.total > taskSet.tasks.length ? ` (run ${p.run + 1})` : ""}${p.reason ? `: ${p.reason}` : ""}`,
        );
    },
  });
  if (tty) process.stderr.write("\r\x1b[2K");
  console.log(resultTable(report));
  const comparison = previous ? compareReports(previous, report) : undefined;
  if (comparison) console.log(`\n${comparisonText(comparison)}`);
  if (flags.json) writeFileSync(flags.json, `${JSON.stringify(report, null, 2)}\n`);
  if (flags.html) writeFileSync(flags.html, renderHtmlReport(report, comparison));
  if (flags.record) console.log(`recorded ${flags.record}`);
  return report.summary.failed > 0 ? 1 : 0;
}
