import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type BaseCheckpointSaver, MemorySaver } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { createDeepAgent } from "delve";
import { ScriptedChatModel } from "delve/testing";
import { afterAll, describe, expect, it } from "vitest";
import { claimTableOf } from "../../src/claims/claim-table.js";
import { orderTools, requestOf, resultFor, resume, thread, user } from "../approval/helpers.js";
import { testPostgres, uniqueSchema } from "../helpers/postgres.js";
import { chargeAgent, charges } from "./exactly-once-agent.js";
import { startRacer } from "./exactly-once-processes.js";

// Hostile case: the same pending approval resumed twice (a double click, a retried webhook,
// two workers). LangGraph has no per-thread lock, so each resume loads the pending
// checkpoint and would run the approved call.

const dir = mkdtempSync(join(tmpdir(), "delve-once-"));
const pg = await testPostgres();
const closers: Array<() => unknown> = [];
afterAll(async () => {
  for (const close of closers) await close();
  pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
const ledgerFile = () => join(dir, `ledger-${n++}.txt`);
const ALREADY = /^Already decided: this approved charge call was run by another resume/;

const savers: Array<[string, () => Promise<BaseCheckpointSaver>]> = [
  ["MemorySaver", async () => new MemorySaver()],
  ["SqliteSaver", async () => SqliteSaver.fromConnString(join(dir, `cp-${n++}.db`))],
];
if (pg) {
  const schema = uniqueSchema("once");
  savers.push([
    "PostgresSaver",
    async () => {
      const saver = PostgresSaver.fromConnString(pg.url, { schema });
      await saver.setup();
      closers.push(() => saver.end());
      return saver;
    },
  ]);
}

async function pausedCharge(checkpointer: BaseCheckpointSaver, id: string) {
  const ledger = ledgerFile();
  const agent = chargeAgent(checkpointer, ledger, true);
  const paused = await agent.invoke(user("charge ORD-9"), thread(id));
  expect(requestOf(paused)?.actionRequests[0]?.name).toBe("charge");
  return { agent, ledger };
}

describe.each(savers)("exactly-once approvals on %s", (_name, open) => {
  it("three concurrent resumes of one approval run the call once; the others answer 'Already decided'", async () => {
    const { agent, ledger } = await pausedCharge(await open(), `race-${n++}`);
    const id = `race-${n - 2}`;
    const outs = await Promise.all(
      [1, 2, 3].map(() => agent.invoke(resume([{ type: "approve" }]), thread(id))),
    );
    expect(charges(ledger)).toBe(1);
    const results = outs.map((o) => String(resultFor(o, "c9")?.content));
    expect(results.filter((r) => r.includes('"charged":"ORD-9"'))).toHaveLength(1);
    expect(results.filter((r) => ALREADY.test(r))).toHaveLength(2);
  });

  it("a resume replayed from the paused checkpoint after the call ran does not run it again", async () => {
    const checkpointer = await open();
    const id = `replay-${n++}`;
    const { agent, ledger } = await pausedCharge(checkpointer, id);
    const pausedAt = (await (agent as any).getState(thread(id))).config;
    await agent.invoke(resume([{ type: "approve" }]), thread(id));
    expect(charges(ledger)).toBe(1);
    // Plain repeat: nothing is pending any more.
    await agent.invoke(resume([{ type: "approve" }]), thread(id));
    // Forked from the paused checkpoint: the approval is decided and its call already ran.
    const forked = await agent.invoke(resume([{ type: "approve" }]), pausedAt as any);
    expect(charges(ledger)).toBe(1);
    expect(String(resultFor(forked, "c9")?.content)).toMatch(ALREADY);
  });
});

describe.each(savers)("a deleted thread's approvals go with it, on %s", (_name, open) => {
  it("the same conversation on a reused thread id asks again and runs the approved call again", async () => {
    const checkpointer = await open();
    const id = `reused-${n++}`;
    const ledger = ledgerFile();
    const first = chargeAgent(checkpointer, ledger, true);
    await first.invoke(user("charge ORD-9"), thread(id));
    await first.invoke(resume([{ type: "approve" }]), thread(id));
    expect(charges(ledger)).toBe(1);
    const other = `kept-${n++}`;
    const keep = chargeAgent(checkpointer, ledger, true);
    await keep.invoke(user("charge ORD-9"), thread(other));
    await keep.invoke(resume([{ type: "approve" }]), thread(other));
    await checkpointer.deleteThread(id);
    // The deleted thread's claims went with it; the other thread's stay.
    const claims = claimTableOf(checkpointer);
    const prefix = (t: string) => `${JSON.stringify(["approval-call", t]).slice(0, -1)},`;
    expect(await claims.removePrefix(prefix(id))).toBe(0);
    expect(await claims.removePrefix(prefix(other))).toBe(1);
    // The same script again: the same derived message ids and call ids as the first time.
    const again = chargeAgent(checkpointer, ledger, true);
    const paused = await again.invoke(user("charge ORD-9"), thread(id));
    expect(requestOf(paused)?.actionRequests[0]?.name).toBe("charge");
    const out = await again.invoke(resume([{ type: "approve" }]), thread(id));
    expect(String(resultFor(out, "c9")?.content)).toBe('{"ok":true,"charged":"ORD-9"}');
    expect(charges(ledger)).toBe(3);
  });
});

describe("conflicting decisions", () => {
  it("approve and reject racing: the first decision stands, the other resume is told it was decided", async () => {
    const { agent, ledger } = await pausedCharge(new MemorySaver(), "conflict");
    const [a, b] = await Promise.all([
      agent.invoke(resume([{ type: "approve" }]), thread("conflict")),
      agent.invoke(resume([{ type: "reject", message: "no" }]), thread("conflict")),
    ]);
    const refused = [a, b].filter((o) => requestOf(o)?.error?.startsWith("Already decided"));
    expect(refused).toHaveLength(1);
    const winner = refused[0] === a ? b : a;
    const ran = charges(ledger);
    expect(ran).toBe(winner === a ? 1 : 0);
    expect(String(resultFor(winner, "c9")?.content)).toBe(
      ran ? '{"ok":true,"charged":"ORD-9"}' : "no",
    );
  });
});

describe("inside a subagent", () => {
  it("two concurrent resumes of a subagent's approval run its call once", async () => {
    const { tools, ran } = orderTools();
    const answer = (messages: any[]) => `Done: ${messages.at(-1).text}`;
    const child = new ScriptedChatModel([
      { toolCalls: [{ name: "delete_order", args: { order_id: "ORD-1" }, id: "s1" }] },
      answer,
      answer,
    ]);
    const delegate = {
      name: "task",
      args: { description: "Delete ORD-1.", subagent_type: "clerk" },
      id: "t1",
    };
    const agent = createDeepAgent({
      model: new ScriptedChatModel([{ toolCalls: [delegate] }, answer, answer]),
      tools,
      subagents: [
        {
          name: "clerk",
          description: "Handles orders.",
          systemPrompt: "Handle orders.",
          model: child,
          interruptOn: { delete_order: true },
        },
      ],
      checkpointer: new MemorySaver(),
    });
    await agent.invoke(user("delete ORD-1"), thread("sub"));
    const outs = await Promise.all(
      [1, 2].map(() => agent.invoke(resume([{ type: "approve" }]), thread("sub"))),
    );
    expect(ran.filter((r) => r.tool === "delete_order")).toHaveLength(1);
    const answers = outs.map((o) => String(resultFor(o, "t1")?.content));
    expect(answers.filter((a) => a.includes('"deleted":"ORD-1"'))).toHaveLength(1);
    expect(answers.filter((a) => a.includes("Already decided"))).toHaveLength(1);
  });
});

describe("two processes on one SQLite file", () => {
  it("both resume the same approval at the same instant; the call runs once", async () => {
    const db = join(dir, "shared.db");
    const checkpointer = SqliteSaver.fromConnString(db);
    const { ledger } = await pausedCharge(checkpointer, "two-procs");
    const script = fileURLToPath(new URL("./exactly-once-run.ts", import.meta.url));
    const racers = [0, 1].map(() => startRacer(script, [db, ledger, "two-procs"]));
    await Promise.all(racers.map((r) => r.printed()));
    for (const r of racers) r.go();
    const results = await Promise.all(racers.map((r) => r.done));
    expect(charges(ledger)).toBe(1);
    const texts = results.map((r) => String(r.result));
    expect(texts.filter((t) => t.includes('"charged":"ORD-9"'))).toHaveLength(1);
    expect(texts.filter((t) => ALREADY.test(t))).toHaveLength(1);
  }, 60_000);
});
