/**
 * One run of the checkpoint benchmark: one contender (Delve by default, Delve with
 * `compactCheckpointer`, npm deepagents) on one saver (Memory, SQLite, PostgreSQL), one
 * workload (a 10 KB `write_file` per step, or a tool returning 5 KB per step), stopping at
 * each length to measure bytes stored, a cold `getState` and peak RSS. `bench/checkpoints.ts`
 * runs each in a child process of its own, so peak RSS is the run's alone.
 *
 * @example
 * node --import tsx bench/checkpoint-run.ts '{"contender":"delve","saver":"sqlite","workload":"files","lengths":[20,100]}'
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { HumanMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { MemorySaver } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import * as deepagents from "deepagents";
import { z } from "zod";
import { MemoryChunkTable } from "../src/checkpoint/chunk-table.js";
import { compactCheckpointer } from "../src/checkpoint/index.js";
import { createDeepAgent } from "../src/index.js";
import { ScriptedChatModel } from "../src/models/scripted-model.js";
import { postgresStoredBytes, sqliteStoredBytes } from "./lib/stored-bytes.js";

/** What one run is. */
export interface RunConfig {
  contender: "delve" | "delve+compact" | "deepagents";
  saver: "memory" | "sqlite" | "postgres";
  workload: "files" | "messages";
  lengths: number[];
  pgUrl?: string;
}

/** What one run measured at one length. */
export interface LengthResult {
  steps: number;
  bytes: number;
  content: number;
  coldMs: number;
  maxRssMb: number;
}

/** What one run measured. */
export interface RunResult {
  config: RunConfig;
  lengths: LengthResult[];
  /** Mean ms per step over the first and the last 50 steps (or a fifth of the run if shorter). */
  firstMs: number;
  lastMs: number;
  /** The same, medians (a snapshot step weighs on the mean, not the median). */
  firstMedianMs: number;
  lastMedianMs: number;
  /** Whether a cold read at the end gave the run's files, messages and message ids. */
  reloadEqual: boolean | null;
}

const WORDS =
  "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau".split(
    " ",
  );

/** A deterministic, unique text of about `size` characters for step `i`. */
function text(i: number, size: number): string {
  let seed = (i + 1) * 2654435761;
  const out: string[] = [`step ${i}:`];
  let length = 0;
  while (length < size) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    const word = `${WORDS[seed % WORDS.length]}${seed % 997}`;
    out.push(word);
    length += word.length + 1;
  }
  return out.join(" ").slice(0, size);
}

const fetchPage = tool(async ({ n }: { n: number }) => text(n, 5 * 1024), {
  name: "fetch_page",
  description: "Fetch page n.",
  schema: z.object({ n: z.number() }),
});

async function openSaver(config: RunConfig, place: string, schema: string): Promise<any> {
  if (config.saver === "memory") return new MemorySaver();
  if (config.saver === "sqlite") return SqliteSaver.fromConnString(join(place, "bench.db"));
  const saver = PostgresSaver.fromConnString(config.pgUrl!, { schema });
  await saver.setup();
  return saver;
}

function build(config: RunConfig, checkpointer: any, model: any): any {
  const tools = config.workload === "messages" ? [fetchPage] : [];
  if (config.contender === "deepagents") {
    return deepagents.createDeepAgent({ model, tools, checkpointer } as any);
  }
  // Storage is what is measured: no summarization (the scripted model cannot summarise).
  return createDeepAgent({ model, tools, checkpointer, summarization: false });
}

function deepBytes(value: unknown, seen = new Set<unknown>()): number {
  if (typeof value === "string") return value.length;
  if (value instanceof Uint8Array) return value.byteLength;
  if (!value || typeof value !== "object" || seen.has(value)) return 0;
  seen.add(value);
  let total = 0;
  for (const v of Object.values(value)) total += deepBytes(v, seen);
  return total;
}

async function bytesStored(
  config: RunConfig,
  base: any,
  wrapped: any,
  schema: string,
): Promise<number> {
  if (config.saver === "memory") {
    const chunks = wrapped?.chunks instanceof MemoryChunkTable ? wrapped.chunks.size().chars : 0;
    return deepBytes(base.storage) + deepBytes(base.writes) + chunks;
  }
  if (config.saver === "sqlite") return sqliteStoredBytes(base.db).total;
  return (await postgresStoredBytes(base.pool, schema)).total;
}

const shapeOf = (values: any) =>
  JSON.stringify({
    files: values?.files ?? {},
    messages: (values?.messages ?? []).map((m: any) => [m.id, m.getType?.(), m.content]),
  });

/** Runs one configuration in this process and returns what it measured. */
export async function runCheckpointCase(config: RunConfig): Promise<RunResult> {
  const place = mkdtempSync(join(tmpdir(), "delve-bench-cp-"));
  const schema = `bench_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  const base = await openSaver(config, place, schema);
  const checkpointer = config.contender === "delve+compact" ? compactCheckpointer(base) : base;
  const max = Math.max(...config.lengths);
  let done = 0; // tool-call steps taken
  let stopAt = 0;
  let content = 0;
  const stepMs: number[] = [];
  let last = 0;
  const step = () => {
    const now = performance.now();
    if (done > 0 && done < stopAt && last > 0) stepMs.push(now - last);
    last = now;
    if (done >= stopAt) return "done";
    const i = done++;
    if (config.workload === "messages") {
      content += 5 * 1024;
      return { toolCalls: [{ name: "fetch_page", args: { n: i } }] };
    }
    const body = text(i, 10 * 1024);
    content += body.length;
    return {
      toolCalls: [
        { name: "write_file", args: { file_path: `/notes/step-${i}.md`, content: body } },
      ],
    };
  };
  const model = new ScriptedChatModel(
    Array.from({ length: max + config.lengths.length + 1 }, () => step),
  );
  const agent = build(config, checkpointer, model);
  const thread = { configurable: { thread_id: "bench" }, recursionLimit: 10_000 };
  const lengths: LengthResult[] = [];
  let out: any;
  let reloadEqual: boolean | null = null;
  try {
    for (const length of [...config.lengths].sort((a, b) => a - b)) {
      stopAt = length;
      last = 0;
      out = await agent.invoke(
        { messages: [new HumanMessage(`continue to step ${length}`)] },
        thread,
      );
      const bytes = await bytesStored(
        config,
        base,
        checkpointer === base ? undefined : checkpointer,
        schema,
      );
      // Cold read: a new saver over the same data (Memory: the same object) and a new agent.
      const coldBase = config.saver === "memory" ? base : await openSaver(config, place, schema);
      const cold =
        coldBase === base
          ? checkpointer
          : config.contender === "delve+compact"
            ? compactCheckpointer(coldBase)
            : coldBase;
      const reader = build(config, cold, new ScriptedChatModel([]));
      const started = performance.now();
      const state = await reader.getState({ configurable: { thread_id: "bench" } });
      const coldMs = performance.now() - started;
      if (length === max && config.contender !== "deepagents") {
        reloadEqual = shapeOf(state.values) === shapeOf(out);
      }
      if (coldBase !== base) await closeSaver(config, coldBase);
      lengths.push({
        steps: length,
        bytes,
        content,
        coldMs,
        maxRssMb: process.resourceUsage().maxRSS / 1024,
      });
    }
  } finally {
    await closeSaver(config, base, schema);
    rmSync(place, { recursive: true, force: true });
  }
  const window = Math.min(50, Math.max(1, Math.floor(stepMs.length / 5)));
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  return {
    config,
    lengths,
    firstMs: mean(stepMs.slice(0, window)),
    lastMs: mean(stepMs.slice(-window)),
    firstMedianMs: median(stepMs.slice(0, window)),
    lastMedianMs: median(stepMs.slice(-window)),
    reloadEqual,
  };
}

async function closeSaver(config: RunConfig, saver: any, dropSchema?: string): Promise<void> {
  if (config.saver === "sqlite") saver.db?.close?.();
  if (config.saver === "postgres") {
    if (dropSchema) await saver.pool.query(`DROP SCHEMA IF EXISTS "${dropSchema}" CASCADE`);
    await saver.end();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const result = await runCheckpointCase(JSON.parse(process.argv[2]!));
  console.log(JSON.stringify(result));
  process.exit(0);
}
