import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HumanMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { pendingQuestions } from "delve";
import { afterAll, describe, expect, it, vi } from "vitest";
import { testPostgres, uniqueSchema } from "../helpers/postgres.js";
import { startRacer } from "../security/exactly-once-processes.js";
import { askingAgent } from "./asking-agent.js";

// Two processes answer one ask_user question at the same instant, on one SQLite file or one
// PostgreSQL schema: the first claimed answer is the tool's result, the other is told.

vi.setConfig({ testTimeout: 120_000 });

const dir = mkdtempSync(join(tmpdir(), "delve-ask-procs-"));
const pg = await testPostgres();
const closers: Array<() => unknown> = [];
afterAll(async () => {
  for (const close of closers) await close();
  pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

type Db = {
  saver: () => Promise<BaseCheckpointSaver>;
  args: (thread: string, a: string) => string[];
};
const databases: Array<[string, () => Db]> = [
  [
    "SQLite",
    () => {
      const file = join(dir, `ask-${Math.random()}.db`);
      return {
        saver: async () => SqliteSaver.fromConnString(file),
        args: (thread, answer) => ["sqlite", file, thread, answer],
      };
    },
  ],
];
if (pg) {
  databases.push([
    "PostgreSQL",
    () => {
      const schema = uniqueSchema("ask");
      return {
        saver: async () => {
          const saver = PostgresSaver.fromConnString(pg.url, { schema });
          await saver.setup();
          closers.push(() => saver.end());
          return saver;
        },
        args: (thread, answer) => ["postgres", pg.url, thread, answer, schema],
      };
    },
  ]);
} else {
  console.warn("ask-user processes: PostgreSQL case skipped (no server, see above).");
}

const script = join(import.meta.dirname, "answer-process.ts");

describe.each(databases)("ask_user answered by two processes at once (%s)", (_name, database) => {
  it("one answer is used; the other process is told Already answered", async () => {
    const db = database();
    const thread = `race-${Math.random()}`;
    const agent = askingAgent(await db.saver(), true);
    const paused = await agent.invoke(
      { messages: [new HumanMessage("go")] },
      { configurable: { thread_id: thread } },
    );
    expect(pendingQuestions(paused).map((q) => q.question)).toEqual(["Ship?"]);
    const racers = ["yes", "no"].map((answer) => startRacer(script, db.args(thread, answer)));
    await Promise.all(racers.map((r) => r.printed()));
    for (const r of racers) r.go();
    const outs = await Promise.all(racers.map((r) => r.done));
    const answered = outs.filter((o) => o?.result);
    const told = outs.filter((o) => o?.error);
    expect(answered).toHaveLength(1);
    expect(answered[0].result).toMatch(/^The user answered: (yes|no)$/);
    expect(told).toEqual([
      {
        error:
          "Already answered: another resume answered this question first, with another answer. This answer was not used.",
      },
    ]);
  });
});
