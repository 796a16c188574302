// The served ticket desk as a second user would attack it: every resource the LangGraph
// server exposes (assistants, threads, runs, crons, store) tried as bob against alice's
// records and the shared assistant, on one `langgraphjs dev` server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth } from "../../examples/ticket-desk/auth.js";
import { STOP_DEADLINE_MS, serveInstalled } from "../serve/server-process.js";
import { DESK_GRAPH, type DeskDevServer, ticketDeskDev } from "../serve/ticket-desk-dev.js";

const installed = serveInstalled();
const say = (content: string) => ({ messages: [{ role: "user", content }] });
const write = say(
  `call write_file ${JSON.stringify({ file_path: "/notes.md", content: "alice's ticket" })}`,
);
const ALICE_FILES = ["ticket-desk", "users", "alice", "files"];

// Every refusal must be one: 403, or 404 / 409 "not found" where the server hides the record.
async function refused(attempt: Promise<unknown>, status: RegExp = /40[349]/) {
  await expect(attempt).rejects.toThrow(status);
}

describe("the ticket desk's auth refuses what it does not name", () => {
  it("an event no handler names is denied (deny by default)", async () => {
    const callbacks = (auth as any)["~handlerCache"].callbacks;
    const user = { identity: "alice", permissions: [] };
    for (const event of ["webhooks:create", "assistants:fork", "crons:create"]) {
      const [resource, action] = event.split(":");
      const handler =
        callbacks[event] ?? callbacks[resource!] ?? callbacks[`*:${action}`] ?? callbacks["*"];
      let outcome: unknown;
      try {
        outcome = await handler({ event, resource, action, value: {}, user, permissions: [] });
      } catch (error) {
        outcome = error;
      }
      if (event === "crons:create") expect(outcome).toEqual({ owner: "alice" });
      else expect((outcome as { status?: number }).status).toBe(403);
    }
  });
});

describe.skipIf(!installed)("the served ticket desk, attacked by another user", () => {
  let desk: DeskDevServer;
  const alice = () => desk.client("token-alice");
  const bob = () => desk.client("token-bob");
  let assistantId = "";
  let threadId = "";
  let runId = "";

  beforeAll(async () => {
    desk = await ticketDeskDev();
    await desk.start();
    const [assistant] = await alice().assistants.search({ graphId: DESK_GRAPH });
    assistantId = assistant!.assistant_id;
    const thread = await alice().threads.create({ metadata: { topic: "refund" } });
    threadId = thread.thread_id;
    await alice().runs.wait(threadId, DESK_GRAPH, { input: write });
    runId = (await alice().runs.list(threadId))[0]!.run_id;
  }, 180_000);

  afterAll(async () => {
    await desk?.dispose();
  }, STOP_DEADLINE_MS + 30_000);

  it("assistants: bob reads the shared assistant but cannot create, update, version or delete one", async () => {
    expect((await bob().assistants.get(assistantId)).graph_id).toBe(DESK_GRAPH);
    await refused(
      bob().assistants.update(assistantId, {
        config: { recursion_limit: 3 },
        metadata: { hijacked: true },
      }),
      /403/,
    );
    await refused(bob().assistants.setLatest(assistantId, 1), /403/);
    await refused(bob().assistants.create({ graphId: DESK_GRAPH, name: "bob's" }), /403/);
    await refused(
      bob().assistants.create({ graphId: DESK_GRAPH, assistantId, ifExists: "do_nothing" }),
      /403/,
    );
    await refused(bob().assistants.delete(assistantId), /403/);
    // The assistant is as it was, and alice's runs still work on it.
    const after = await alice().assistants.get(assistantId);
    expect(after.metadata).not.toHaveProperty("hijacked");
    expect((after.config as any)?.recursion_limit).toBeUndefined();
    const fresh = await alice().threads.create();
    const values: any = await alice().runs.wait(fresh.thread_id, assistantId, { input: write });
    expect(values?.files?.["/notes.md"]).toBeDefined();
  }, 120_000);

  it("threads: alice's thread is invisible to bob, who can neither change, copy nor delete it", async () => {
    await refused(bob().threads.get(threadId));
    await refused(bob().threads.getState(threadId));
    await refused(bob().threads.getHistory(threadId));
    await refused(bob().threads.update(threadId, { metadata: { owner: "bob" } }));
    await refused(bob().threads.updateState(threadId, { values: { files: {} } }));
    await refused(bob().threads.copy(threadId));
    await refused(bob().threads.delete(threadId));
    await refused(bob().threads.create({ threadId, ifExists: "do_nothing" }));
    const theirs = await bob().threads.search({ limit: 100 });
    expect(theirs.map((t) => t.thread_id)).not.toContain(threadId);
    // The owner stamp is the server's: a user cannot claim or give away a thread.
    const claimed = await bob().threads.create({ metadata: { owner: "alice" } });
    expect(claimed.metadata?.owner).toBe("bob");
    await refused(alice().threads.get(claimed.thread_id));
    expect((await alice().threads.get(threadId)).metadata?.owner).toBe("alice");
  }, 60_000);

  it("runs: bob cannot start, list, read, join, cancel or delete runs on alice's thread", async () => {
    await refused(bob().runs.create(threadId, DESK_GRAPH, { input: write }));
    await refused(bob().runs.wait(threadId, DESK_GRAPH, { input: write }));
    await refused(bob().runs.list(threadId));
    await refused(bob().runs.get(threadId, runId));
    await refused(bob().runs.join(threadId, runId));
    await refused(bob().runs.cancel(threadId, runId));
    await refused(bob().runs.delete(threadId, runId));
    expect((await alice().runs.get(threadId, runId)).run_id).toBe(runId);
    expect((await alice().runs.list(threadId)).map((r) => r.run_id)).toContain(runId);
  }, 60_000);

  it("crons: refused for every user (this server has none)", async () => {
    const body = { assistant_id: assistantId, thread_id: threadId, schedule: "* * * * *" };
    for (const token of ["token-alice", "token-bob"]) {
      for (const path of [`/threads/${threadId}/runs/crons`, "/runs/crons"]) {
        const res = await fetch(`${desk.url()}${path}`, {
          method: "POST",
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
          body: JSON.stringify(body),
        });
        expect(res.ok).toBe(false);
        expect(await res.text()).toMatch(/Not implemented|not allowed|not found/i);
      }
    }
  });

  it("store: bob can neither read, list, search, write nor delete in alice's namespace", async () => {
    await alice().store.putItem(ALICE_FILES, "/secret.md", { content: "alice only" });
    await refused(bob().store.getItem(ALICE_FILES, "/secret.md"), /403/);
    await refused(bob().store.searchItems(ALICE_FILES), /403/);
    await refused(bob().store.searchItems(["ticket-desk"]), /403/);
    await refused(bob().store.listNamespaces(), /403/);
    await refused(bob().store.listNamespaces({ prefix: ["ticket-desk", "users"] }), /403/);
    await refused(bob().store.putItem(ALICE_FILES, "/secret.md", { content: "bob" }), /403/);
    await refused(bob().store.deleteItem(ALICE_FILES, "/secret.md"), /403/);
    const item = await alice().store.getItem(ALICE_FILES, "/secret.md");
    expect((item?.value as any)?.content).toBe("alice only");
    // Bob's own namespace is open to him.
    const BOB_FILES = ["ticket-desk", "users", "bob", "files"];
    await bob().store.putItem(BOB_FILES, "/mine.md", { content: "bob's" });
    expect(((await bob().store.getItem(BOB_FILES, "/mine.md"))?.value as any)?.content).toBe(
      "bob's",
    );
  });
});
