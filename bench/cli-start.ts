/**
 * `delve --version` and `delve --help` start-up: the wall time of a fresh `node
 * dist/cli/main.js --version` process beside `node -e 0` (node's own start-up). Neither may
 * load agent code, so the target is an absolute 80 ms of wall time.
 *
 * @example
 * const report = await runCliStartBench({ smoke: true });
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureBuilt } from "./import-time.js";
import { type BenchOptions, type BenchReport, formatMs, target } from "./lib/report.js";
import { interleaved, median, spread } from "./lib/timing.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BIN = join(ROOT, "dist", "cli", "main.js");

function wallOf(args: string[]): () => Promise<number> {
  return () => {
    const start = performance.now();
    return new Promise((resolve, reject) => {
      execFile(process.execPath, args, { cwd: ROOT }, (error, _stdout, stderr) => {
        if (error) return reject(new Error(`${args.join(" ")} failed: ${stderr || error.message}`));
        resolve(performance.now() - start);
      });
    });
  };
}

/** Times the three processes interleaved and checks `delve --version` <= 80 ms of wall time. */
export async function runCliStartBench(options: BenchOptions): Promise<BenchReport> {
  const warning = ensureBuilt();
  const plan = options.smoke ? { runs: 3, warmup: 1 } : { runs: 21, warmup: 2 };
  const samples = await interleaved(
    {
      "node -e 0": wallOf(["-e", "0"]),
      "delve --version": wallOf([BIN, "--version"]),
      "delve --help": wallOf([BIN, "--help"]),
    },
    plan,
  );
  const node = median(samples["node -e 0"]!);
  const rows = Object.entries(samples).map(([name, ms]) => [
    name,
    formatMs(median(ms)),
    spread(ms, 0),
    formatMs(median(ms) - node),
  ]);
  return {
    title: "6. CLI start-up (fresh process each run, wall time)",
    tables: [
      {
        caption: `${plan.runs} runs interleaved, median`,
        headers: ["command", "wall ms", "min..max", "over node -e 0"],
        rows,
      },
    ],
    // The absolute target assumes node itself starts in ~40 ms; on a loaded machine the
    // overhead over `node -e 0` is the figure that says whether agent code was loaded.
    targets: [
      target("delve --version wall", median(samples["delve --version"]!), 80, "ms"),
      target(
        "delve --version over node -e 0",
        median(samples["delve --version"]!) - node,
        40,
        "ms",
      ),
    ],
    notes: [
      "Built binary (dist/cli/main.js) on plain node: no TypeScript loader.",
      ...(warning ? [`WARNING: ${warning}`] : []),
    ],
  };
}
