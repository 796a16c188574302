/**
 * Checkpoint storage side by side: Delve by default, Delve with `compactCheckpointer` and
 * npm deepagents, on MemorySaver, SqliteSaver and PostgresSaver (`DELVE_PG_URL`; skipped with
 * the reason when unset), at 20, 100, 200 and 500 steps of a scripted model: one 10 KB
 * `write_file` per step ("files"), or a tool returning 5 KB per step ("messages"). Printed:
 * bytes stored / content, ms per step over the first and last 50 steps, a cold `getState`,
 * peak RSS, and whether the reloaded state equals the run's. Each run is a child process (its
 * own peak RSS); the smoke run is short, in this process.
 *
 * @example
 * const reports = await runCheckpointsBench({ smoke: true });
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { runCheckpointDesksBench } from "./checkpoint-desks.js";
import { type RunConfig, type RunResult, runCheckpointCase } from "./checkpoint-run.js";
import {
  type BenchOptions,
  type BenchReport,
  formatMs,
  type TargetCheck,
  target,
} from "./lib/report.js";

const RUN_SCRIPT = fileURLToPath(new URL("./checkpoint-run.ts", import.meta.url));
const CONTENDERS: RunConfig["contender"][] = ["delve", "delve+compact", "deepagents"];
/** deepagents' storage grows as steps^2 (GBs past 200 steps): it stops at this length. */
const DEEPAGENTS_MAX = 100;

async function runChild(config: RunConfig): Promise<RunResult> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", RUN_SCRIPT, JSON.stringify(config)],
    { maxBuffer: 16 * 1024 * 1024, timeout: 30 * 60_000 },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1)!);
}

const ratio = (r: RunResult, steps: number) => {
  const at = r.lengths.find((l) => l.steps === steps);
  return at ? at.bytes / at.content : Number.NaN;
};
const fmt = (x: number, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : "-");

/** Runs the checkpoint benchmark and returns one report per workload. */
export async function runCheckpointsBench(options: BenchOptions): Promise<BenchReport[]> {
  const pgUrl = process.env.DELVE_PG_URL?.trim();
  const savers: RunConfig["saver"][] = options.smoke
    ? ["memory", "sqlite"]
    : ["memory", "sqlite", ...(pgUrl ? (["postgres"] as const) : [])];
  const lengths = options.smoke ? [5, 10] : [20, 100, 200, 500];
  const workloads: RunConfig["workload"][] = options.smoke ? ["files"] : ["files", "messages"];
  const reports: BenchReport[] = [];
  for (const workload of workloads) {
    const results: RunResult[] = [];
    const failed: string[] = [];
    for (const saver of savers) {
      for (const contender of CONTENDERS) {
        if (options.smoke && contender === "deepagents" && saver !== "memory") continue;
        const own =
          contender === "deepagents" ? lengths.filter((l) => l <= DEEPAGENTS_MAX) : lengths;
        const config: RunConfig = { contender, saver, workload, lengths: own, pgUrl };
        try {
          results.push(options.smoke ? await runCheckpointCase(config) : await runChild(config));
        } catch (error) {
          failed.push(
            `${contender} on ${saver} (${workload}): ${String((error as Error).message).split("\n")[0]}`,
          );
        }
      }
    }
    const done = report(workload, results, lengths, options, pgUrl);
    done.notes!.push(...failed.map((f) => `CRASHED: ${f}`));
    if (failed.length)
      done.targets.push(target(`${workload}: runs that crashed`, failed.length, 0, ""));
    reports.push(done);
  }
  reports.push(await runCheckpointDesksBench(options));
  return reports;
}

function report(
  workload: RunConfig["workload"],
  results: RunResult[],
  lengths: number[],
  options: BenchOptions,
  pgUrl: string | undefined,
): BenchReport {
  const max = Math.max(...lengths);
  const rows = results.map((r) => {
    const end = r.lengths.at(-1)!;
    return [
      r.config.contender,
      r.config.saver,
      ...lengths.map((l) => (r.lengths.some((x) => x.steps === l) ? `${fmt(ratio(r, l))}x` : "-")),
      formatMs(r.firstMs),
      formatMs(r.lastMs),
      `${fmt(r.lastMs / r.firstMs, 2)}x`,
      `${fmt(r.lastMedianMs / r.firstMedianMs, 2)}x`,
      `${formatMs(end.coldMs)} @${end.steps}`,
      `${fmt(end.maxRssMb, 0)}`,
      r.reloadEqual === null ? "-" : r.reloadEqual ? "yes" : "NO",
    ];
  });
  const targets: TargetCheck[] = [];
  if (!options.smoke) {
    for (const r of results) {
      const { contender, saver } = r.config;
      if (contender === "deepagents") continue;
      const name = `${workload} ${contender} ${saver}`;
      const end = r.lengths.find((l) => l.steps === max);
      if (workload === "files") {
        targets.push(
          target(
            `${name}: stored/content @${max} (every non-key column)`,
            ratio(r, max),
            contender === "delve" ? 15 : 2,
            "x",
          ),
        );
        if (saver !== "postgres") {
          targets.push(
            target(
              `${name}: last50/first50 ms`,
              r.lastMs / r.firstMs,
              contender === "delve" ? 1.5 : 2,
              "x",
            ),
          );
        }
        if (saver !== "memory" && end) {
          targets.push(
            target(
              `${name}: cold getState ms @${max}`,
              end.coldMs,
              saver === "sqlite" ? 300 : 500,
              "ms",
            ),
          );
        }
      } else if (contender === "delve") {
        targets.push(target(`${name}: stored/content @${max}`, ratio(r, max), 4, "x"));
      }
      targets.push(
        target(
          `${name}: reloaded state differs from the run (1 = yes)`,
          r.reloadEqual ? 0 : 1,
          0,
          "",
        ),
      );
    }
  }
  return {
    title: `6. checkpoint storage, ${workload} workload (${workload === "files" ? "one 10 KB write_file" : "one 5 KB tool result"} per step)`,
    tables: [
      {
        caption:
          "bytes stored / content at each length; ms per step: mean of the first and last 50 steps",
        headers: [
          "contender",
          "saver",
          ...lengths.map((l) => `@${l}`),
          "first ms",
          "last ms",
          "last/first",
          "median last/first",
          "cold getState ms",
          "peak RSS MB",
          "reload equal",
        ],
        rows,
      },
    ],
    targets,
    notes: [
      "Bytes: every non-key column of every table (saver's, compactCheckpointer's, claims), uncompressed; MemorySaver: its objects.",
      "Delve runs with summarization: false (storage is measured; the scripted model cannot summarise).",
      `deepagents stops at ${DEEPAGENTS_MAX} steps: its storage grows with the square of the steps.`,
      ...(pgUrl || options.smoke ? [] : ["PostgreSQL skipped: DELVE_PG_URL is not set."]),
      ...(options.smoke ? ["Smoke: tiny lengths in one process; the figures mean nothing."] : []),
    ],
  };
}
