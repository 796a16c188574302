/**
 * `import` time: what `import "delve"` costs a user, against `import "deepagents"`. Each
 * sample is a fresh `node` child process that times one dynamic `import()` of the built
 * entry (Delve's `dist/index.js`, deepagents' package entry) with `performance.now()`, so
 * node's own start-up is left out; the child's wall time is shown too. Delve must be built
 * (running the TypeScript sources through tsx would not be comparable): when `dist/` is
 * missing this runs `npm run build` first, and it warns when `dist/` is older than `src/`.
 *
 * @example
 * const report = await runImportTimeBench({ smoke: true });
 */
import { execFile, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  type BenchOptions,
  type BenchReport,
  formatMs,
  formatRatio,
  target,
} from "./lib/report.js";
import { interleaved, median, spread } from "./lib/timing.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DELVE_ENTRY = join(ROOT, "dist", "index.js");

// Runs in the child: one timed import, reported as JSON on stdout.
const CHILD = `
const t0 = performance.now();
await import(process.env.BENCH_IMPORT_SPECIFIER);
process.stdout.write(JSON.stringify({ ms: performance.now() - t0 }));
`;

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds Delve when `dist/` is missing; returns a warning when it looks stale. */
export function ensureBuilt(): string | undefined {
  if (!existsSync(DELVE_ENTRY)) {
    console.log("  (dist/ is missing: running npm run build)");
    const build = spawnSync("npm", ["run", "build"], { cwd: ROOT, encoding: "utf8" });
    if (!existsSync(DELVE_ENTRY)) {
      throw new Error(`npm run build produced no dist/index.js:\n${build.stdout}\n${build.stderr}`);
    }
    if (build.status !== 0) return "npm run build reported errors; dist/ was emitted anyway.";
    return undefined;
  }
  if (newestMtime(join(ROOT, "src")) > statSync(DELVE_ENTRY).mtimeMs) {
    return "dist/ is older than src/: run npm run build for current figures.";
  }
  return undefined;
}

/** One fresh process importing `specifier`: the in-process import time and the wall time. */
function importOnce(specifier: string): Promise<{ ms: number; wall: number }> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["--input-type=module", "-e", CHILD],
      { cwd: ROOT, env: { ...process.env, BENCH_IMPORT_SPECIFIER: specifier } },
      (error, stdout, stderr) => {
        const wall = performance.now() - start;
        if (error)
          return reject(new Error(`import of ${specifier} failed: ${stderr || error.message}`));
        resolve({ ms: JSON.parse(stdout).ms, wall });
      },
    );
  });
}

/** Times both imports in fresh processes, interleaved, and checks delve/deepagents <= 1.0. */
export async function runImportTimeBench(options: BenchOptions): Promise<BenchReport> {
  const warning = ensureBuilt();
  const specifiers = { delve: pathToFileURL(DELVE_ENTRY).href, deepagents: "deepagents" };
  const walls: Record<string, number[]> = { delve: [], deepagents: [] };
  const contender = (name: keyof typeof specifiers) => async () => {
    const { ms, wall } = await importOnce(specifiers[name]);
    walls[name]!.push(wall);
    return ms;
  };
  const plan = options.smoke ? { runs: 2, warmup: 0 } : { runs: 11, warmup: 1 };
  const samples = await interleaved(
    { delve: contender("delve"), deepagents: contender("deepagents") },
    plan,
  );
  // Warm-up rounds also pushed wall times: keep the timed ones only.
  for (const name of Object.keys(walls)) walls[name] = walls[name]!.slice(plan.warmup);
  const d = median(samples.delve!);
  const t = median(samples.deepagents!);
  const rows = (["delve", "deepagents"] as const).map((name) => [
    name === "delve" ? "delve (dist/index.js)" : "deepagents",
    formatMs(median(samples[name]!)),
    spread(samples[name]!, 0),
    formatMs(median(walls[name]!)),
    formatRatio(d, median(samples[name]!)),
  ]);
  return {
    title: "4. import time (fresh node process each run)",
    tables: [
      {
        caption: `${plan.runs} runs interleaved, median`,
        headers: ["package", "import ms", "min..max", "process wall ms", "delve/this"],
        rows,
      },
    ],
    targets: [target("import: delve/deepagents", d / t, 1, "x")],
    notes: [
      "import ms = performance.now() around one dynamic import() in the child; wall includes node start-up.",
      ...(warning ? [`WARNING: ${warning}`] : []),
    ],
  };
}
