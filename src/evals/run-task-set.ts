import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { ConfigurationError } from "../errors/configuration-error.js";
import { LazyChatModel } from "../models/lazy-chat-model.js";
import {
  type CassetteFile,
  CassetteReplay,
  type CassetteStep,
  loadCassette,
  saveCassette,
} from "./cassette.js";
import { isTaskSet } from "./define-task-set.js";
import type { EvalReport, RunReport, TaskReport } from "./report.js";
import { runTask } from "./run-task.js";
import type { PriceTable } from "./trajectory.js";
import type { EvalTask, TaskSet } from "./types.js";

/** A model: an instance, `"provider:model"`, or a factory per task run (for scripted models). */
export type ModelOption =
  | BaseChatModel
  | string
  | ((task: EvalTask, run: number) => BaseChatModel | string);

/** Progress of a task set run, reported after each task run. */
export interface EvalProgress {
  done: number;
  total: number;
  task: string;
  run: number;
  pass: boolean;
  reason?: string;
}

/** Options of `runTaskSet`. */
export interface RunTaskSetOptions {
  /** The model under test; not needed with `replay`. */
  model?: ModelOption;
  /** Record every model response into this cassette file (overwritten at the end). */
  record?: string;
  /** Answer every model request from this cassette file: offline and deterministic. */
  replay?: string;
  /** Runs per task, for pass rates on real models. Default 1. */
  repeat?: number;
  /** Task runs at once. Default 2. */
  concurrency?: number;
  /** The judge for `answerMatches({ judge })`. */
  judge?: BaseChatModel | string;
  /** USD per million tokens by model name, to put a cost on each call. */
  prices?: PriceTable;
  /** Only these task ids. */
  only?: string[];
  /** Called after each task run. */
  onProgress?: (progress: EvalProgress) => void;
}

const toModel = (m: BaseChatModel | string) => (typeof m === "string" ? new LazyChatModel(m) : m);

/**
 * Runs every task of a task set (`repeat` times each, `concurrency` at once) and returns
 * the report: per task pass/fail with the reasons, each run's trajectory, tokens and cost
 * from the provider's usage data, and time. With `record`, every model response is saved
 * in a cassette keyed by its request; with `replay`, the run calls no model and a changed
 * request fails its task with "task X step N no longer matches its recorded request".
 *
 * @example
 * const report = await runTaskSet(taskSet, { replay: "evals/desk.cassette.json" });
 * if (report.summary.failed) process.exitCode = 1;
 */
export async function runTaskSet(
  taskSet: TaskSet,
  options: RunTaskSetOptions = {},
): Promise<EvalReport> {
  if (!isTaskSet(taskSet)) {
    throw new ConfigurationError(
      "INVALID_TASK_SET",
      "runTaskSet takes a task set made by defineTaskSet.",
    );
  }
  if (options.record && options.replay) {
    throw new ConfigurationError("INVALID_EVAL_OPTIONS", "Use record or replay, not both.");
  }
  if (!options.replay && !options.model) {
    throw new ConfigurationError(
      "INVALID_EVAL_OPTIONS",
      "runTaskSet needs a model (or a cassette to replay).",
    );
  }
  const repeat = options.repeat ?? 1;
  const concurrency = options.concurrency ?? 2;
  for (const [key, n] of [
    ["repeat", repeat],
    ["concurrency", concurrency],
  ] as const) {
    if (!Number.isInteger(n) || n < 1) {
      throw new ConfigurationError(
        "INVALID_EVAL_OPTIONS",
        `${key} must be a whole number >= 1 (got ${n}).`,
      );
    }
  }
  const tasks = options.only
    ? taskSet.tasks.filter((t) => options.only?.includes(t.id))
    : taskSet.tasks;
  const cassette: CassetteFile | undefined = options.replay
    ? loadCassette(options.replay)
    : undefined;
  const modelName =
    typeof options.model === "string" ? options.model : cassette ? cassette.model : undefined;
  const recorded: CassetteFile = {
    format: "delve-cassette",
    version: 1,
    ...(modelName ? { model: modelName } : {}),
    tasks: {},
  };
  const judge = options.judge ? toModel(options.judge) : undefined;

  const jobs = tasks.flatMap((task) => Array.from({ length: repeat }, (_, run) => ({ task, run })));
  const results = new Map<string, RunReport[]>();
  const started = Date.now();
  let done = 0;
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const { task, run } = jobs[next++] as (typeof jobs)[number];
      let record: CassetteStep[] | undefined;
      if (options.record) {
        record = [];
        recorded.tasks[task.id] ??= { runs: [] };
        (recorded.tasks[task.id] as { runs: CassetteStep[][] }).runs[run] = record;
      }
      let replay: CassetteReplay | undefined;
      if (cassette && options.replay) {
        const runs = cassette.tasks[task.id]?.runs;
        replay = new CassetteReplay(
          task.id,
          runs?.[run] ?? runs?.[run % runs.length],
          options.replay,
        );
      }
      const chosen = typeof options.model === "function" ? options.model(task, run) : options.model;
      const report = await runTask(taskSet, task, run, {
        ...(chosen && !replay ? { inner: toModel(chosen) } : {}),
        ...(judge ? { judge } : {}),
        ...(typeof chosen === "string"
          ? { modelKey: chosen }
          : modelName
            ? { modelKey: modelName }
            : {}),
        ...(replay ? { replay } : {}),
        ...(record ? { record } : {}),
        ...(options.prices ? { prices: options.prices } : {}),
      });
      const list = results.get(task.id) ?? [];
      list[run] = report;
      results.set(task.id, list);
      done++;
      options.onProgress?.({
        done,
        total: jobs.length,
        task: task.id,
        run,
        pass: report.pass,
        ...(report.reasons[0] ? { reason: report.reasons[0] } : {}),
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, worker));
  if (options.record) saveCassette(options.record, recorded);

  const taskReports: TaskReport[] = tasks.map((task) => {
    const runs = results.get(task.id) ?? [];
    const passed = runs.filter((r) => r.pass).length;
    const firstFail = runs.find((r) => !r.pass);
    return {
      id: task.id,
      pass: passed === runs.length,
      passRate: runs.length ? passed / runs.length : 0,
      ...(firstFail?.reasons[0] ? { reason: firstFail.reasons[0] } : {}),
      runs,
    };
  });
  const allRuns = taskReports.flatMap((t) => t.runs);
  const costs = allRuns.map((r) => r.cost);
  const passedTasks = taskReports.filter((t) => t.pass).length;
  return {
    format: "delve-eval-report",
    version: 1,
    taskSet: taskSet.name,
    ...(modelName ? { model: modelName } : {}),
    mode: options.replay ? "replay" : options.record ? "record" : "live",
    repeat,
    startedAt: new Date(started).toISOString(),
    ms: Date.now() - started,
    summary: {
      tasks: taskReports.length,
      passed: passedTasks,
      failed: taskReports.length - passedTasks,
      passRate: allRuns.length ? allRuns.filter((r) => r.pass).length / allRuns.length : 0,
      modelCalls: allRuns.reduce((n, r) => n + r.modelCalls, 0),
      usage: allRuns.reduce(
        (u, r) => ({
          input: u.input + r.usage.input,
          output: u.output + r.usage.output,
          total: u.total + r.usage.total,
        }),
        { input: 0, output: 0, total: 0 },
      ),
      ...(costs.length && costs.every((c) => c !== undefined)
        ? { cost: costs.reduce((a, b) => (a as number) + (b as number), 0) }
        : {}),
    },
    tasks: taskReports,
  };
}
