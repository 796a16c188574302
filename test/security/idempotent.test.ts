import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tool } from "@langchain/core/tools";
import { type BaseStore, InMemoryStore } from "@langchain/langgraph";
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import { idempotent, ok } from "delve";
import { SqliteStore } from "delve/sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { testPostgres, uniqueSchema } from "../helpers/postgres.js";
import { startRacer } from "./exactly-once-processes.js";
import { charges, chargeTool } from "./idempotent-tool.js";

// Hostile cases: callers of one idempotency key in different processes at the same instant,
// and a process killed (or frozen) between the tool's side effect and its record.

const script = fileURLToPath(new URL("./idempotent-run.ts", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "delve-idem-"));
const pg = await testPostgres();
const closers: Array<() => unknown> = [];
afterAll(async () => {
  for (const close of closers) await close();
  pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface Shared {
  /** The child script's store arguments: kind, location, schema. */
  args: string[];
  open(): Promise<BaseStore>;
}

const sqlite = (): Shared => {
  const file = join(dir, `store-${Math.random().toString(36).slice(2)}.db`);
  return {
    args: ["sqlite", file, "-"],
    open: async () => {
      const store = SqliteStore.open(file);
      closers.push(() => store.close());
      return store;
    },
  };
};
const postgres = (): Shared => {
  const schema = uniqueSchema("idem");
  return {
    args: ["postgres", pg!.url, schema],
    open: async () => {
      const store = PostgresStore.fromConnString(pg!.url, { schema });
      await store.setup();
      closers.push(() => store.stop());
      return store;
    },
  };
};
const kinds: Array<[string, () => Shared]> = [["SqliteStore", sqlite]];
if (pg) kinds.push(["PostgresStore", postgres]);

let n = 0;
const ledgerFile = () => join(dir, `ledger-${n++}.txt`);

describe.each(kinds)("idempotent() across processes on %s", (_name, shared) => {
  it("three processes call one key at the same instant: the tool runs once and all get its result", async () => {
    const db = shared();
    const store = await db.open(); // creates the tables before the race
    const ledger = ledgerFile();
    const racers = [0, 1].map(() => startRacer(script, [...db.args, ledger, "ORD-1", "race"]));
    await Promise.all(racers.map((r) => r.printed()));
    for (const r of racers) r.go();
    const here = chargeTool(store, ledger).invoke({ order_id: "ORD-1" });
    const results = [await here, ...(await Promise.all(racers.map((r) => r.done)))];
    expect(charges(ledger)).toBe(1);
    expect(results.filter((r) => r.created === true)).toHaveLength(1);
    expect(results.filter((r) => r.created === false)).toHaveLength(2);
    expect(new Set(results.map((r) => r.by)).size).toBe(1);
  }, 60_000);

  it("a call killed with kill -9 after its side effect is reported as an unknown outcome, not run again", async () => {
    const db = shared();
    const store = await db.open();
    const ledger = ledgerFile();
    const victim = startRacer(script, [...db.args, ledger, "ORD-2", "hang"]);
    await victim.printed();
    victim.go();
    await victim.printed("effect");
    victim.child.kill("SIGKILL");
    await victim.done;
    const next = await chargeTool(store, ledger).invoke({ order_id: "ORD-2" });
    expect(next).toMatchObject({ ok: false, code: "IDEMPOTENCY_OUTCOME_UNKNOWN" });
    expect(next.message).toMatch(
      /its process died before recording a result: it may or may not have taken effect/,
    );
    expect(charges(ledger)).toBe(1);
    // Another key is not affected.
    expect(await chargeTool(store, ledger).invoke({ order_id: "ORD-3" })).toMatchObject({
      ok: true,
      created: true,
    });
  }, 60_000);
});

describe("in one process", () => {
  it("a tool that acted but whose record could not be written is reported unknown, not run again", async () => {
    class FailingPut extends InMemoryStore {
      failNext = true;
      override async put(...args: Parameters<InMemoryStore["put"]>) {
        if (this.failNext) {
          this.failNext = false;
          throw new Error("disk full");
        }
        return super.put(...args);
      }
    }
    const ledger = ledgerFile();
    const store = new FailingPut();
    await expect(chargeTool(store, ledger).invoke({ order_id: "ORD-5" })).rejects.toThrow(
      "disk full",
    );
    const next = await chargeTool(store, ledger).invoke({ order_id: "ORD-5" });
    expect(next).toMatchObject({ ok: false, code: "IDEMPOTENCY_OUTCOME_UNKNOWN" });
    expect(charges(ledger)).toBe(1);
  });

  it("a caller that waited past 4 x leaseMs for a live call gets IDEMPOTENCY_IN_PROGRESS, retryable", async () => {
    const db = sqlite();
    const [a, b] = [await db.open(), await db.open()]; // two handles: no shared in-process lock
    const slow = idempotent(
      tool(
        async () => {
          await new Promise((r) => setTimeout(r, 1_500));
          return ok({ done: true });
        },
        { name: "slow", description: "Slow.", schema: z.object({ id: z.string() }) },
      ),
      { key: (x) => x.id, store: a, leaseMs: 100 },
    );
    const first = slow.invoke({ id: "S-1" });
    await new Promise((r) => setTimeout(r, 100));
    const impatient = idempotent(
      tool(async () => ok({ ran: "twice" }), {
        name: "slow",
        description: "Slow.",
        schema: z.object({ id: z.string() }),
      }),
      { key: (x) => x.id, store: b, leaseMs: 100 },
    );
    expect(await impatient.invoke({ id: "S-1" })).toMatchObject({
      ok: false,
      code: "IDEMPOTENCY_IN_PROGRESS",
      retryable: true,
    });
    expect(await first).toMatchObject({ ok: true, created: true });
    expect(await impatient.invoke({ id: "S-1" })).toMatchObject({
      ok: true,
      created: false,
      done: true,
    });
  });
});

describe("a frozen caller", () => {
  it("a process stopped (SIGSTOP) inside the tool stops its heartbeat: after leaseMs the outcome is unknown", async () => {
    const db = sqlite();
    const store = await db.open();
    const ledger = ledgerFile();
    const victim = startRacer(script, [...db.args, ledger, "ORD-4", "hang"], { LEASE_MS: "300" });
    try {
      await victim.printed();
      victim.go();
      await victim.printed("effect");
      victim.child.kill("SIGSTOP");
      const started = Date.now();
      const next = await chargeTool(store, ledger, { leaseMs: 300 }).invoke({ order_id: "ORD-4" });
      expect(next).toMatchObject({ ok: false, code: "IDEMPOTENCY_OUTCOME_UNKNOWN" });
      expect(next.message).toMatch(/it stopped reporting/);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(charges(ledger)).toBe(1);
    } finally {
      victim.child.kill("SIGKILL");
      await victim.done;
    }
  }, 60_000);
});
