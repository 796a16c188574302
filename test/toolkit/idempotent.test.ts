import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { InMemoryStore } from "@langchain/langgraph";
import { createDeepAgent, fail, idempotent, ok } from "delve";
import { ScriptedChatModel } from "delve/testing";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";

const ROOT = resolve(import.meta.dirname, "../..");
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

/** A ticket system whose create call counts what it really did. */
function ticketDesk(options: { delayMs?: number } = {}) {
  const created: string[] = [];
  const createTicket = tool(
    async ({ order_id, draft_id }: { order_id: string; draft_id: string }) => {
      if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
      created.push(draft_id);
      return ok({ ticket_id: `T-${created.length}`, order_id });
    },
    {
      name: "create_ticket",
      description: "Create an after-sales ticket for an order.",
      schema: z.object({ order_id: z.string(), draft_id: z.string() }),
    },
  );
  return { created, createTicket };
}

describe("idempotent()", () => {
  it("runs once per key and returns the first result to repeats with created: false", async () => {
    const { created, createTicket } = ticketDesk();
    const safe = idempotent(createTicket, { key: (a) => a.draft_id, store: new InMemoryStore() });
    const first = await safe.invoke({ order_id: "ORD-1", draft_id: "D-1" });
    const again = await safe.invoke({ order_id: "ORD-1", draft_id: "D-1" });
    const other = await safe.invoke({ order_id: "ORD-1", draft_id: "D-2" });
    expect(first).toEqual({ ok: true, created: true, ticket_id: "T-1", order_id: "ORD-1" });
    expect(again).toEqual({ ok: true, created: false, ticket_id: "T-1", order_id: "ORD-1" });
    expect(other).toMatchObject({ created: true, ticket_id: "T-2" });
    expect(created).toEqual(["D-1", "D-2"]);
  });

  it("keeps the tool's own name, description and schema", () => {
    const { createTicket } = ticketDesk();
    const safe = idempotent(createTicket, { key: (a) => a.draft_id });
    expect(safe.name).toBe("create_ticket");
    expect(safe.description).toBe(createTicket.description);
    expect(safe.schema).toBe(createTicket.schema);
  });

  it("concurrent calls with one key run the tool once", async () => {
    const { created, createTicket } = ticketDesk({ delayMs: 30 });
    const safe = idempotent(createTicket, { key: (a) => a.draft_id, store: new InMemoryStore() });
    const results = await Promise.all(
      Array.from({ length: 5 }, () => safe.invoke({ order_id: "ORD-1", draft_id: "D-1" })),
    );
    expect(created).toEqual(["D-1"]);
    expect(results.map((r: any) => r.created).sort()).toEqual([false, false, false, false, true]);
    expect(new Set(results.map((r: any) => r.ticket_id))).toEqual(new Set(["T-1"]));
  });

  it("parallel tool calls with one key in one model turn run once; the model sees created true then false", async () => {
    const { created, createTicket } = ticketDesk({ delayMs: 20 });
    const safe = idempotent(createTicket, { key: (a) => a.draft_id, store: new InMemoryStore() });
    const args = { order_id: "ORD-7", draft_id: "D-7" };
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          { name: "create_ticket", args },
          { name: "create_ticket", args },
        ],
      },
      "done",
    ]);
    const agent = createDeepAgent({ model, tools: [safe] });
    await agent.invoke({ messages: [{ role: "user", content: "open a ticket" }] });
    const results = model.calls[1]!.messages.filter((m) => ToolMessage.isInstance(m));
    const flags = results.map((m) => JSON.parse(String(m.content)).created).sort();
    expect(flags).toEqual([false, true]);
    expect(created).toEqual(["D-7"]);
  });

  it("a call that threw is not recorded: the retry runs the tool again", async () => {
    let attempts = 0;
    const flaky = tool(
      async ({ payment_id }: { payment_id: string }) => {
        attempts++;
        if (attempts === 1) throw new Error("gateway timed out before charging");
        return ok({ payment_id, charged: 42 });
      },
      {
        name: "charge_card",
        description: "Charge a card.",
        schema: z.object({ payment_id: z.string() }),
      },
    );
    const safe = idempotent(flaky, { key: (a) => a.payment_id, store: new InMemoryStore() });
    await expect(safe.invoke({ payment_id: "P-1" })).rejects.toThrow(/timed out/);
    expect(await safe.invoke({ payment_id: "P-1" })).toMatchObject({ created: true, charged: 42 });
    expect(await safe.invoke({ payment_id: "P-1" })).toMatchObject({ created: false });
    expect(attempts).toBe(2);
  });

  it("a fail() result is not recorded either, so the call can succeed later", async () => {
    let allowed = false;
    let runs = 0;
    const guarded = tool(
      async ({ refund_id }: { refund_id: string }) => {
        runs++;
        if (!allowed) return fail({ code: "FORBIDDEN", message: "No refund rights." });
        return ok({ refund_id });
      },
      {
        name: "refund_order",
        description: "Refund an order.",
        schema: z.object({ refund_id: z.string() }),
      },
    );
    const safe = idempotent(guarded, { key: (a) => a.refund_id, store: new InMemoryStore() });
    expect(await safe.invoke({ refund_id: "R-1" })).toMatchObject({ ok: false, code: "FORBIDDEN" });
    allowed = true;
    expect(await safe.invoke({ refund_id: "R-1" })).toMatchObject({ ok: true, created: true });
    expect(runs).toBe(2);
  });

  it("reusing a key with other arguments is refused with IDEMPOTENCY_KEY_REUSED", async () => {
    const { created, createTicket } = ticketDesk();
    const safe = idempotent(createTicket, { key: (a) => a.draft_id, store: new InMemoryStore() });
    await safe.invoke({ order_id: "ORD-1", draft_id: "D-1" });
    const reused = await safe.invoke({ order_id: "ORD-2", draft_id: "D-1" });
    expect(reused).toMatchObject({ ok: false, code: "IDEMPOTENCY_KEY_REUSED" });
    expect(created).toEqual(["D-1"]);
    // Same arguments in another key order are the same request.
    expect(await safe.invoke({ draft_id: "D-1", order_id: "ORD-1" })).toMatchObject({
      created: false,
    });
  });

  it("a value the tool reports as created is kept on the first run", async () => {
    const upsert = tool(
      async ({ draft_id }: { draft_id: string }) => ok({ draft_id, created: false }),
      {
        name: "create_draft",
        description: "Create a draft.",
        schema: z.object({ draft_id: z.string() }),
      },
    );
    const safe = idempotent(upsert, { key: (a) => a.draft_id, store: new InMemoryStore() });
    expect(await safe.invoke({ draft_id: "D-1" })).toEqual({
      ok: true,
      created: false,
      draft_id: "D-1",
    });
  });

  it("a plain-text result comes back unchanged first, and with a created: false line on repeats", async () => {
    const sendNote = tool(async ({ note_id }: { note_id: string }) => `Sent note ${note_id}.`, {
      name: "send_note",
      description: "Send a note.",
      schema: z.object({ note_id: z.string() }),
    });
    const safe = idempotent(sendNote, { key: (a) => a.note_id, store: new InMemoryStore() });
    expect(await safe.invoke({ note_id: "N-1" })).toBe("Sent note N-1.");
    const again = await safe.invoke({ note_id: "N-1" });
    expect(again).toMatch(/^Sent note N-1\.\n\ncreated: false/);
  });

  it("records live in the given store under the tool's namespace, or the agent's store", async () => {
    const store = new InMemoryStore();
    const { createTicket } = ticketDesk();
    const safe = idempotent(createTicket, { key: (a) => `${a.order_id}:${a.draft_id}` });
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "create_ticket", args: { order_id: "ORD-3", draft_id: "D-3" } }] },
      "done",
    ]);
    await createDeepAgent({ model, tools: [safe], store }).invoke({
      messages: [{ role: "user", content: "go" }],
    });
    const item = await store.get(["delve", "idempotency", "create_ticket"], "ORD-3:D-3");
    expect(item?.value).toMatchObject({ kind: "json", content: { ticket_id: "T-1" } });
  });

  it("a key function that returns no string is a configuration error", async () => {
    const { createTicket } = ticketDesk();
    const safe = idempotent(createTicket, { key: () => "" });
    await expect(safe.invoke({ order_id: "O", draft_id: "D" })).rejects.toThrow(/non-empty string/);
    expect(() => idempotent(createTicket, {} as any)).toThrow(/key must be a function/);
  });
});

describe("idempotent() across a process restart", () => {
  // A separate Node process per attempt: the "retry after a restart" a payment needs.
  const CHILD = `
import { appendFileSync } from "node:fs";
import { SqliteStore } from ${JSON.stringify(join(ROOT, "src/stores/sqlite-store.ts"))};
import { idempotent } from ${JSON.stringify(join(ROOT, "src/toolkit/idempotent.ts"))};
const [dbPath, ledger, paymentId] = process.argv.slice(2);
const store = new SqliteStore({ path: dbPath });
const charge = idempotent(
  {
    name: "charge_card",
    description: "Charge a card once per payment id.",
    schema: { type: "object", properties: { payment_id: { type: "string" }, amount: { type: "number" } }, required: ["payment_id", "amount"] },
    func: async ({ payment_id, amount }) => {
      appendFileSync(ledger, payment_id + " " + amount + "\\n");
      return { ok: true, payment_id, amount };
    },
  },
  { key: (args) => args.payment_id, store },
);
console.log(JSON.stringify(await charge.invoke({ payment_id: paymentId, amount: 42 })));
store.close();
`;

  it("with a SqliteStore, a retry in a new process returns the recorded result and does not charge twice", async () => {
    const dir = await mkdtemp(join(tmpdir(), "delve-idem-"));
    dirs.push(dir);
    const script = join(dir, "charge.mts");
    await writeFile(script, CHILD);
    const ledger = join(dir, "ledger.txt");
    await writeFile(ledger, "");
    const attempt = (paymentId: string) => {
      const run = spawnSync(
        process.execPath,
        ["--import", "tsx", script, join(dir, "store.db"), ledger, paymentId],
        { cwd: ROOT, encoding: "utf8", timeout: 60_000 },
      );
      expect(run.status, run.stderr).toBe(0);
      return JSON.parse(run.stdout.trim().split("\n").at(-1)!);
    };
    expect(attempt("PAY-1")).toEqual({ ok: true, created: true, payment_id: "PAY-1", amount: 42 });
    expect(attempt("PAY-1")).toEqual({ ok: true, created: false, payment_id: "PAY-1", amount: 42 });
    expect(attempt("PAY-2")).toMatchObject({ created: true, payment_id: "PAY-2" });
    expect(await readFile(ledger, "utf8")).toBe("PAY-1 42\nPAY-2 42\n");
  }, 120_000);
});
