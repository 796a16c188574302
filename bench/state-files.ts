/**
 * In-state file operations over 2,000 files of 2 KB: grep (the target), glob and ls. Both
 * `StateBackend`s are called directly, each on the same files in its own `FileData` format,
 * through the path they take inside an agent run: the files come from LangGraph's
 * `__pregel_read` in the run's config, which this benchmark provides by running inside
 * `runWithConfig` (no graph, so nothing but the backend is timed). Result sizes are printed
 * next to the times so a fast wrong answer shows.
 *
 * @example
 * const report = await runStateFilesBench({ smoke: false });
 */
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import { getConfig } from "@langchain/langgraph";
import * as deepagents from "deepagents";
import type { FileData } from "../src/backends/protocol/protocol.js";
import { StateBackend } from "../src/index.js";
import {
  type BenchOptions,
  type BenchReport,
  formatMs,
  formatRatio,
  type TargetCheck,
  target,
} from "./lib/report.js";
import { interleaved, median } from "./lib/timing.js";

/** The most grep may take relative to deepagents. */
export const GREP_LIMIT_RATIO = 0.5;

const WORDS = (
  "agent backend channel delta error file graph harness index json kernel ledger model node " +
  "output prompt query reducer state ticket update value worker yield zone brief summary"
).split(" ");

/** A deterministic corpus: paths and ~`size`-byte texts; 1 in 20 files (half .md, half .ts) holds a needle line. */
export function makeCorpus(count: number, size: number): Array<[string, string]> {
  let seed = 42;
  const next = () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed;
  };
  const files: Array<[string, string]> = [];
  for (let i = 0; i < count; i++) {
    const dir = i % 4 === 0 ? "/dir" : `/dir/s${String(i % 20).padStart(2, "0")}`;
    const ext = i % 2 === 0 ? "md" : "ts";
    const lines: string[] = [];
    let length = 0;
    while (length < size) {
      const words: string[] = [];
      for (let w = 0; w < 8; w++) words.push(WORDS[next() % WORDS.length]!);
      const line = `${words.join(" ")} ${i}`;
      lines.push(line);
      length += line.length + 1;
    }
    if (i % 40 === 6 || i % 40 === 7)
      lines[(next() % lines.length) >>> 0] = `const NEEDLE_${i} = "found";`;
    files.push([`${dir}/file-${String(i).padStart(4, "0")}.${ext}`, lines.join("\n")]);
  }
  return files;
}

/**
 * Runs `fn` as if inside an agent step whose `files` channel holds `files.current`: one
 * context for the whole loop, and each contender points `current` at its own corpus, so
 * both take the same path and no per-call context cost is timed.
 */
async function withFilesChannel<T>(files: { current: object }, fn: () => Promise<T>): Promise<T> {
  const configurable = {
    __pregel_read: (channel: string) => (channel === "files" ? files.current : undefined),
    __pregel_send: () => {
      throw new Error("a read-only benchmark tried to write");
    },
  };
  return AsyncLocalStorageProviderSingleton.runWithConfig({ configurable } as any, fn);
}

type Op = {
  name: string;
  delve: (b: StateBackend) => Promise<number>;
  theirs: (b: any) => number;
  /** The grep checked against the target. */
  target?: boolean;
};

const size = (r: { matches?: unknown[]; files?: unknown[]; error?: unknown }): number => {
  if (r.error) throw new Error(`backend error: ${JSON.stringify(r.error)}`);
  return (r.matches ?? r.files ?? []).length;
};

const OPS: Op[] = [
  {
    name: 'grep "NEEDLE_" (5% of files)',
    delve: async (b) => size(await b.grep("NEEDLE_", { maxCount: 1000 })),
    theirs: (b) => size(b.grep("NEEDLE_", "/", null, 1000)),
    target: true,
  },
  {
    name: 'grep "absent-text" (no match)',
    delve: async (b) => size(await b.grep("absent-text", { maxCount: 1000 })),
    theirs: (b) => size(b.grep("absent-text", "/", null, 1000)),
  },
  {
    name: 'grep "ledger" (cap 1,000 lines)',
    delve: async (b) => size(await b.grep("ledger", { maxCount: 1000 })),
    theirs: (b) => size(b.grep("ledger", "/", null, 1000)),
  },
  {
    name: 'grep "NEEDLE_" glob "*.md"',
    delve: async (b) => size(await b.grep("NEEDLE_", { glob: "*.md", maxCount: 1000 })),
    theirs: (b) => size(b.grep("NEEDLE_", "/", "*.md", 1000)),
  },
  {
    name: 'glob "**/*.md"',
    delve: async (b) => size(await b.glob("**/*.md", { maxResults: 10_000 })),
    theirs: (b) => size(b.glob("**/*.md", "/")),
  },
  {
    name: 'ls "/dir"',
    delve: async (b) => size(await b.ls("/dir")),
    theirs: (b) => size(b.ls("/dir")),
  },
];

/**
 * Times each operation for both backends (interleaved, median of per-call means) and checks
 * the needle grep's delve/deepagents ratio against `GREP_LIMIT_RATIO`.
 */
export async function runStateFilesBench(options: BenchOptions): Promise<BenchReport> {
  const count = options.smoke ? 200 : 2000;
  const corpus = makeCorpus(count, 2048);
  const now = new Date().toISOString();
  const delveFiles: Record<string, FileData> = {};
  const theirFiles: Record<string, unknown> = {};
  for (const [path, content] of corpus) {
    delveFiles[path] = { content, encoding: "utf-8", createdAt: now, modifiedAt: now };
    theirFiles[path] = { content, mimeType: "text/plain", created_at: now, modified_at: now };
  }
  const delve = new StateBackend();
  const theirs = new deepagents.StateBackend();
  const plan = options.smoke
    ? { runs: 2, warmup: 1, repeat: 1 }
    : { runs: 15, warmup: 3, repeat: 5 };

  const rows: string[][] = [];
  const targets: TargetCheck[] = [];
  for (const op of OPS) {
    const counts = { delve: -1, theirs: -1 };
    const channel = { current: {} as object };
    const samples = await withFilesChannel(channel, () =>
      interleaved(
        {
          delve: async () => {
            channel.current = delveFiles;
            counts.delve = await op.delve(delve);
          },
          deepagents: () => {
            channel.current = theirFiles;
            counts.theirs = op.theirs(theirs);
          },
        },
        plan,
      ),
    );
    const d = median(samples.delve!);
    const t = median(samples.deepagents!);
    rows.push([
      op.name,
      formatMs(d),
      formatMs(t),
      formatRatio(d, t),
      String(counts.delve),
      String(counts.theirs),
    ]);
    if (op.target)
      targets.push(target("grep: delve/deepagents (in state)", d / t, GREP_LIMIT_RATIO, "x"));
  }
  assertChannelGone();
  return {
    title: `3. In-state file operations (${count.toLocaleString("en-US")} files of 2 KB)`,
    tables: [
      {
        caption: `${plan.runs} runs interleaved x ${plan.repeat} calls, median ms per call`,
        headers: ["operation", "delve ms", "deepagents ms", "ratio", "delve n", "deepagents n"],
        rows,
      },
    ],
    targets,
    notes: [
      "both backends read the files through LangGraph's __pregel_read, as inside an agent run.",
      "n = matches (grep) or entries (glob, ls); deepagents' ls/glob have no cap, Delve's glob cap is lifted.",
    ],
  };
}

// The contexts above must not leak into later benchmarks.
function assertChannelGone(): void {
  let inside = false;
  try {
    inside = getConfig()?.configurable?.__pregel_read !== undefined;
  } catch {
    inside = false;
  }
  if (inside) throw new Error("the files channel context leaked out of the state benchmark");
}
