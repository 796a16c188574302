/**
 * Two desks beside the checkpoint storage runs, Delve alone and with `compactCheckpointer`,
 * on SQLite and PostgreSQL (`DELVE_PG_URL`): an order desk that approves every turn (bytes
 * each approval turn adds, early and late in the thread: a resumed turn must store what it
 * changed, not the message list again), and a small desk where no string reaches the
 * wrapper's threshold (the wrapper must cost nothing there: bytes and cold `getState`).
 * Bytes: every non-key column of every table (bench/lib/stored-bytes.ts).
 *
 * @example
 * const report = await runCheckpointDesksBench({ smoke: true });
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tool } from "@langchain/core/tools";
import { Command } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { z } from "zod";
import { compactCheckpointer } from "../src/checkpoint/index.js";
import { createDeepAgent } from "../src/index.js";
import { ScriptedChatModel } from "../src/models/scripted-model.js";
import { type BenchOptions, type BenchReport, formatMs, target } from "./lib/report.js";
import { postgresStoredBytes, sqliteStoredBytes } from "./lib/stored-bytes.js";

type Kind = "sqlite" | "postgres";

/** A database both contenders of one run use: `open()` gives a new saver over it. */
async function database(kind: Kind, pgUrl: string | undefined, tag: string) {
  const schema = `desk_${tag}_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const opened: any[] = [];
  const place = mkdtempSync(join(tmpdir(), "delve-bench-desk-"));
  const open = async (): Promise<any> => {
    const saver =
      kind === "sqlite"
        ? SqliteSaver.fromConnString(join(place, "desk.db"))
        : PostgresSaver.fromConnString(pgUrl!, { schema });
    if (kind === "postgres") await (saver as PostgresSaver).setup();
    opened.push(saver);
    return saver;
  };
  const first = await open();
  return {
    open,
    bytes: async () =>
      kind === "sqlite"
        ? sqliteStoredBytes(first.db).total
        : (await postgresStoredBytes(first.pool, schema)).total,
    close: async () => {
      if (kind === "postgres") await first.pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      for (const s of opened.reverse()) await (kind === "sqlite" ? s.db.close() : s.end());
      rmSync(place, { recursive: true, force: true });
    },
  };
}

const say = (t: number, words: number) => `turn ${t}: ${"the order desk answers ".repeat(words)}`;

/** Bytes added per approval turn (pause and resume): mean of the first and the last 5. */
async function approvalDesk(kind: Kind, compact: boolean, turns: number, pgUrl?: string) {
  const db = await database(kind, pgUrl, "appr");
  try {
    const ship = tool(async ({ order }: { order: string }) => say(Number(order), 20), {
      name: "ship",
      description: "Ship an order.",
      schema: z.object({ order: z.string() }),
    });
    const steps = Array.from({ length: turns }, (_, t) => [
      { toolCalls: [{ name: "ship", args: { order: String(t) } }] },
      say(t, 25),
    ]).flat();
    const base = await db.open();
    const agent = createDeepAgent({
      model: new ScriptedChatModel(steps),
      tools: [ship],
      interruptOn: { ship: true },
      checkpointer: compact ? compactCheckpointer(base) : base,
      summarization: false,
    });
    const config = { configurable: { thread_id: "desk" } };
    const perTurn: number[] = [];
    let messages = 0;
    for (let t = 0; t < turns; t += 1) {
      const before = await db.bytes();
      await agent.invoke({ messages: [{ role: "user", content: say(t, 20) }] }, config);
      const out: any = await agent.invoke(
        new Command({ resume: { decisions: [{ type: "approve" }] } }) as any,
        config,
      );
      perTurn.push((await db.bytes()) - before);
      messages = out.messages.length;
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const window = Math.min(5, Math.max(1, Math.floor(turns / 3)));
    return {
      first: mean(perTurn.slice(0, window)),
      last: mean(perTurn.slice(-window)),
      messages,
    };
  } finally {
    await db.close();
  }
}

/** A desk with short texts only: bytes stored and the median cold `getState`. */
async function smallDesk(kind: Kind, compact: boolean, turns: number, pgUrl?: string) {
  const db = await database(kind, pgUrl, "small");
  try {
    const lookup = tool(async ({ order }: { order: string }) => `order ${order}: paid, ships Tue`, {
      name: "lookup",
      description: "Look up an order.",
      schema: z.object({ order: z.string() }),
    });
    const steps = Array.from({ length: turns }, (_, t) => [
      { toolCalls: [{ name: "lookup", args: { order: `O-${t}` } }] },
      `Order O-${t} is paid and ships Tuesday.`,
    ]).flat();
    const wrap = (saver: any) => (compact ? compactCheckpointer(saver) : saver);
    const agent = createDeepAgent({
      model: new ScriptedChatModel(steps),
      tools: [lookup],
      checkpointer: wrap(await db.open()),
      summarization: false,
    });
    const config = { configurable: { thread_id: "desk" } };
    for (let t = 0; t < turns; t += 1) {
      await agent.invoke({ messages: [{ role: "user", content: `where is O-${t}?` }] }, config);
    }
    const cold: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const reader = createDeepAgent({
        model: new ScriptedChatModel([]),
        checkpointer: wrap(await db.open()),
      });
      const started = performance.now();
      await reader.getState(config);
      cold.push(performance.now() - started);
    }
    return { bytes: await db.bytes(), coldMs: cold.sort((a, b) => a - b)[2]! };
  } finally {
    await db.close();
  }
}

/** Runs both desks on every database at hand and returns one report. */
export async function runCheckpointDesksBench(options: BenchOptions): Promise<BenchReport> {
  const pgUrl = process.env.DELVE_PG_URL?.trim() || undefined;
  const kinds: Kind[] = ["sqlite", ...(pgUrl && !options.smoke ? (["postgres"] as const) : [])];
  const turns = options.smoke ? 4 : 45;
  const rows: string[][] = [];
  const targets = [];
  for (const kind of kinds) {
    const plain = await approvalDesk(kind, false, turns, pgUrl);
    const wrapped = await approvalDesk(kind, true, turns, pgUrl);
    const small = await smallDesk(kind, false, turns, pgUrl);
    const smallWrapped = await smallDesk(kind, true, turns, pgUrl);
    for (const [name, r] of [
      ["delve", plain],
      ["delve+compact", wrapped],
    ] as const) {
      rows.push([
        name,
        kind,
        `${(r.first / 1024).toFixed(1)} KB`,
        `${(r.last / 1024).toFixed(1)} KB @${r.messages} msgs`,
        `${(r.last / r.first).toFixed(2)}x`,
      ]);
      if (!options.smoke) {
        targets.push(
          target(
            `storage per approval turn, ${name} ${kind}: last/first`,
            r.last / r.first,
            1.5,
            "x",
          ),
        );
      }
    }
    rows.push([
      "small desk: compact/delve",
      kind,
      `${(small.bytes / 1024).toFixed(0)} KB vs ${(smallWrapped.bytes / 1024).toFixed(0)} KB`,
      `cold ${formatMs(small.coldMs)} vs ${formatMs(smallWrapped.coldMs)}`,
      `${(smallWrapped.bytes / small.bytes).toFixed(2)}x bytes`,
    ]);
    if (!options.smoke) {
      const bytes = smallWrapped.bytes / small.bytes;
      targets.push(target(`small desk ${kind}: compact/delve bytes`, bytes, 1.05, "x"));
      const cold = smallWrapped.coldMs / small.coldMs;
      targets.push(target(`small desk ${kind}: compact/delve cold getState`, cold, 1.5, "x"));
    }
  }
  return {
    title: `7. checkpoint desks (${turns} turns): approvals, and no string long enough to cut`,
    tables: [
      {
        caption:
          "approval desk: bytes one turn (pause + approved resume) adds, mean of the first and last 5 turns; small desk: bytes and median cold getState of 5",
        headers: ["contender", "saver", "first turns", "last turns", "ratio"],
        rows,
      },
    ],
    targets,
    notes: [
      "Bytes: every non-key column of every table, uncompressed (bench/lib/stored-bytes.ts).",
      ...(pgUrl || options.smoke ? [] : ["PostgreSQL skipped: DELVE_PG_URL is not set."]),
      ...(options.smoke ? ["Smoke: 4 turns, SQLite only; the figures mean nothing."] : []),
    ],
  };
}
