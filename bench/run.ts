/**
 * The benchmark runner: `npm run bench` (full) or `npm run bench:smoke` (tiny sizes, one or
 * two runs, under 30 s: checks every benchmark still runs and prints every table). Each
 * benchmark compares Delve with the npm `deepagents` package side by side in this one
 * process, interleaved, by median, and prints ratios, because the machine is shared and
 * absolute figures drift. Targets are reported, never enforced: the exit code is non-zero
 * only when a benchmark crashes.
 *
 * @example
 * npx tsx bench/run.ts --smoke
 * npx tsx bench/run.ts --only state,import   # keys: surface, steps, state, import, checkpoints, long-thread, cli, deferral, viewer, grep-fs
 */
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { runCheckpointsBench } from "./checkpoints.js";
import { runCliStartBench } from "./cli-start.js";
import { runDeferralBench } from "./deferral.js";
import { runHarnessStepsBench } from "./harness-steps.js";
import { runImportTimeBench } from "./import-time.js";
import {
  type BenchOptions,
  type BenchReport,
  formatMs,
  formatRatio,
  formatTarget,
  printReport,
  type TargetCheck,
  target,
} from "./lib/report.js";
import { runLongThreadBench } from "./long-thread.js";
import { runStateFilesBench } from "./state-files.js";
import { runSurfaceBench } from "./surface.js";
import { runViewerBench } from "./viewer.js";

type Bench = { key: string; run: (options: BenchOptions) => Promise<unknown> };

const GREP_FS_MODULE = fileURLToPath(new URL("./grep-fs.ts", import.meta.url));

// The on-disk grep benchmark is written separately; it joins the run when it exists, and its
// result (medians, ratio, target) is turned into a report here.
async function grepFsBench(options: BenchOptions): Promise<unknown> {
  const mod = await import(pathToFileURL(GREP_FS_MODULE).href);
  if (typeof mod.runGrepFsBench !== "function") {
    throw new Error("bench/grep-fs.ts does not export runGrepFsBench");
  }
  const result = await mod.runGrepFsBench({ smoke: options.smoke });
  return isReport(result) ? result : grepFsReport(result);
}

function grepFsReport(r: any): BenchReport {
  const mb = (r.bytes / 1024 / 1024).toFixed(1);
  return {
    title: `5. grep on disk (${r.files} files, ${mb} MB, "${r.pattern}")`,
    tables: [
      {
        caption: `${r.runs} runs alternated, median`,
        headers: ["backend", "ms", "matches", "ratio"],
        rows: [
          ["delve FilesystemBackend", formatMs(r.delveMs), String(r.delveMatches), "1.00x"],
          [
            "deepagents FilesystemBackend",
            formatMs(r.deepagentsMs),
            String(r.deepagentsMatches),
            formatRatio(r.delveMs, r.deepagentsMs),
          ],
        ],
      },
    ],
    targets: [target("grep on disk: delve/deepagents", r.ratio, r.target, "x")],
    notes: [
      `ripgrep hidden from deepagents (its in-process fallback is measured): ${r.ripgrepAbsent ? "yes" : "NO, result invalid"}.`,
      ...(r.delveMatches === r.deepagentsMatches ? [] : ["WARNING: the match counts differ."]),
    ],
  };
}

const BENCHES: Bench[] = [
  { key: "surface", run: runSurfaceBench },
  { key: "steps", run: runHarnessStepsBench },
  { key: "state", run: runStateFilesBench },
  { key: "import", run: runImportTimeBench },
  { key: "checkpoints", run: runCheckpointsBench },
  { key: "long-thread", run: runLongThreadBench },
  { key: "cli", run: runCliStartBench },
  { key: "deferral", run: runDeferralBench },
  { key: "viewer", run: runViewerBench },
  ...(existsSync(GREP_FS_MODULE) ? [{ key: "grep-fs", run: grepFsBench }] : []),
];

function isReport(value: unknown): value is BenchReport {
  return typeof value === "object" && value !== null && "title" in value && "tables" in value;
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const smoke = args.includes("--smoke");
  const onlyAt = args.indexOf("--only");
  const only = onlyAt === -1 ? undefined : (args[onlyAt + 1] ?? "").split(",");
  const options: BenchOptions = { smoke };
  const started = performance.now();
  console.log(
    `Delve benchmarks (${smoke ? "smoke: tiny sizes, targets not meaningful" : "full"}), node ${process.version}`,
  );

  const targets: TargetCheck[] = [];
  const crashed: string[] = [];
  for (const bench of BENCHES) {
    if (only && !only.includes(bench.key)) continue;
    // A benchmark may edit the environment (grep-fs hides ripgrep from PATH): undo it.
    const env = { ...process.env };
    try {
      const result = await bench.run(options);
      // A benchmark may print itself and return nothing, or return one or more reports.
      const reports = (Array.isArray(result) ? result : [result]).filter(isReport);
      for (const report of reports) {
        printReport(report);
        targets.push(...report.targets);
      }
    } catch (error) {
      crashed.push(bench.key);
      console.error(`\n!! benchmark "${bench.key}" crashed:`, error);
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
      Object.assign(process.env, env);
    }
  }

  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`\n== Summary (${smoke ? "smoke" : "full"}, ${seconds} s) ==`);
  for (const check of targets) console.log(`  ${formatTarget(check)}`);
  if (crashed.length > 0) console.log(`  CRASHED: ${crashed.join(", ")}`);
  return crashed.length > 0 ? 1 : 0;
}

// Exit explicitly: a failed child spawn in deepagents (its ripgrep probe) leaves a 30 s timer.
process.exit(await main());
