/**
 * Step cost along a long thread: the default agent (summarization off: the scripted model
 * cannot summarise) writes a new 10 KB file per step for N steps in one `invoke`, on
 * SqliteSaver, the same behind `compactCheckpointer`, and PostgresSaver (`DELVE_PG_URL`).
 * A step is timed whole, from one model call to the next (tool node, middleware, checkpoint
 * writes); the figure is the median of the last 50 steps over the median of the first 50
 * (issue 22's target: at most 1.3x at 500 steps). `--smoke` runs 120 steps, SQLite only.
 *
 * @example
 * const report = await runLongThreadBench({ smoke: true });
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HumanMessage } from "@langchain/core/messages";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { compactCheckpointer } from "../src/checkpoint/index.js";
import { createDeepAgent } from "../src/index.js";
import { ScriptedChatModel } from "../src/models/scripted-model.js";
import {
  type BenchOptions,
  type BenchReport,
  formatMs,
  type TargetCheck,
  target,
} from "./lib/report.js";
import { median } from "./lib/timing.js";

type Saver = "sqlite" | "sqlite+compact" | "postgres";
const WINDOW = 50;
/** The target for last-50 / first-50. */
export const LONG_THREAD_TARGET = 1.3;

/**
 * The per-step times (ms) of one run of `steps` file writes on `saver`: wall time, and this
 * process's CPU time (which other load on a shared machine inflates far less).
 */
export async function longThreadSteps(
  saver: Saver,
  steps: number,
  pgUrl?: string,
): Promise<{ wall: number[]; cpu: number[] }> {
  const place = mkdtempSync(join(tmpdir(), "delve-bench-long-"));
  const schema = `bench_long_${Date.now().toString(36)}`;
  let base: any;
  if (saver === "postgres") {
    base = PostgresSaver.fromConnString(pgUrl!, { schema });
    await base.setup();
  } else base = SqliteSaver.fromConnString(join(place, "bench.db"));
  const stepMs: number[] = [];
  const cpuMs: number[] = [];
  let last = 0;
  let lastCpu = 0;
  let done = 0;
  const step = () => {
    const now = performance.now();
    const usage = process.cpuUsage();
    const cpu = (usage.user + usage.system) / 1000;
    if (last > 0) {
      stepMs.push(now - last);
      cpuMs.push(cpu - lastCpu);
    }
    last = now;
    lastCpu = cpu;
    if (done >= steps) return "done";
    const i = done++;
    const content = `step ${i}: ${"lorem ipsum dolor sit amet ".repeat(400)}`.slice(0, 10_240);
    return { toolCalls: [{ name: "write_file", args: { file_path: `/notes/${i}.md`, content } }] };
  };
  const model = new ScriptedChatModel(Array.from({ length: steps + 2 }, () => step));
  const checkpointer = saver === "sqlite+compact" ? compactCheckpointer(base) : base;
  const agent = createDeepAgent({ model, checkpointer, summarization: false });
  try {
    await agent.invoke(
      { messages: [new HumanMessage("write the notes")] },
      { configurable: { thread_id: "long" }, recursionLimit: 100_000 },
    );
  } finally {
    if (saver === "postgres") {
      await base.pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await base.end();
    } else base.db?.close?.();
    rmSync(place, { recursive: true, force: true });
  }
  // The last interval is the final answer's, not a step.
  return { wall: stepMs.slice(0, steps), cpu: cpuMs.slice(0, steps) };
}

/** Runs the long-thread step bench and returns its report. */
export async function runLongThreadBench(options: BenchOptions): Promise<BenchReport> {
  const pgUrl = process.env.DELVE_PG_URL?.trim();
  const steps = options.smoke ? 120 : 500;
  const savers: Saver[] = options.smoke
    ? ["sqlite"]
    : ["sqlite", "sqlite+compact", ...(pgUrl ? (["postgres"] as const) : [])];
  const rows: string[][] = [];
  const targets: TargetCheck[] = [];
  // A short run first, so the first saver's first steps are not the JIT's warm-up.
  if (!options.smoke) await longThreadSteps("sqlite", 2 * WINDOW);
  for (const saver of savers) {
    const { wall, cpu } = await longThreadSteps(saver, steps, pgUrl);
    const first = median(wall.slice(0, WINDOW));
    const lastMs = median(wall.slice(-WINDOW));
    const ratio = lastMs / first;
    const cpuRatio = median(cpu.slice(-WINDOW)) / median(cpu.slice(0, WINDOW));
    rows.push([
      saver,
      String(steps),
      formatMs(first),
      formatMs(lastMs),
      `${ratio.toFixed(2)}x`,
      `${cpuRatio.toFixed(2)}x`,
    ]);
    if (!options.smoke)
      targets.push(target(`long thread ${saver}: last50/first50`, ratio, LONG_THREAD_TARGET, "x"));
  }
  return {
    title: "7. step cost along a long thread (a new 10 KB file per step, one invoke)",
    tables: [
      {
        caption: `median ms of a whole step (model call to model call), first and last ${WINDOW} steps`,
        headers: ["saver", "steps", "first 50 ms", "last 50 ms", "last/first", "cpu last/first"],
        rows,
      },
    ],
    targets,
    notes: [
      "cpu last/first: the same medians over this process's CPU time per step (the saver's server not counted); steadier than wall time on a loaded machine.",
      ...(pgUrl || options.smoke ? [] : ["PostgreSQL skipped: DELVE_PG_URL is not set."]),
    ],
  };
}
