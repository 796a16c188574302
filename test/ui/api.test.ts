import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openSession } from "../../src/run/engine.js";
import { openThreadsDb } from "../../src/run/threads-db.js";
import { readThreadHistory } from "../../src/ui/history-read.js";
import type { UiServer } from "../../src/ui/server.js";
import { readHistory, stepsOf } from "../../src/ui/thread-view.js";
import { type Harness, startHarness } from "../cli/run-harness.js";
import { completedThread, pausedThread, serveUi } from "./ui-fixture.js";

// `delve ui`'s JSON API over threads made by the real `delve run` on the fake OpenAI.

vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

let h: Harness;
let ws: string;
let done: string;
let paused: string;
let ui: UiServer;
const get = async (route: string) => {
  const response = await fetch(new URL(route, ui.url));
  return { status: response.status, body: (await response.json()) as any };
};

beforeAll(async () => {
  h = await startHarness();
  ws = h.workspace({ "notes.txt": "alpha\n" });
  done = await completedThread(h, ws);
  paused = await pausedThread(h, ws);
  ui = await serveUi(h, ws);
});
afterAll(async () => {
  await ui?.close();
  await h.close();
});

describe("delve ui API", () => {
  it("lists threads newest first with status, first task line, turns, tokens and cost; filters by status", async () => {
    const { body } = await get("/api/threads");
    expect(body.threads.map((t: any) => [t.id, t.status])).toEqual([
      [paused, "paused"],
      [done, "completed"],
    ]);
    const first = body.threads[1];
    expect(first.title).toBe("make hello");
    expect(first.turns).toBe(3);
    expect(first.tokens.input).toBeGreaterThan(0);
    expect(first.cost_usd).toBeGreaterThan(0);
    expect((await get("/api/threads?status=completed")).body.threads.map((t: any) => t.id)).toEqual(
      [done],
    );
    expect((await get("/api/threads?status=bogus")).status).toBe(400);
    expect((await get("/api/threads?page=2")).body.threads).toEqual([]);
  });

  it("a thread's steps carry the model calls with tool calls and usage, and the tool results with their status", async () => {
    const { body } = await get(`/api/threads/${done}`);
    const messages = body.steps.flatMap((s: any) => s.messages);
    const calls = messages.flatMap((m: any) => m.tool_calls ?? []).map((c: any) => c.name);
    expect(calls).toEqual(["write_file", "edit_file"]);
    const results = messages.filter((m: any) => m.role === "tool");
    expect(results.map((r: any) => [r.name, r.status])).toEqual([
      ["write_file", "success"],
      ["edit_file", "success"],
    ]);
    expect(messages.at(-1)).toMatchObject({ role: "ai", text: "all done" });
    const usage = body.steps.flatMap((s: any) => s.usage);
    expect(usage).toHaveLength(3);
    expect(usage[0].cost_usd).toBeGreaterThan(0);
    expect(body.pending).toEqual([]);
    expect((await get("/api/threads/nope")).status).toBe(404);
  });

  it("the one-pass read of the checkpoint tuples gives the steps getStateHistory gives", async () => {
    for (const id of [done, paused]) {
      const session = await openSession({ workspace: ws, threadId: id, readOnly: true });
      const db = await openThreadsDb(ws);
      try {
        const full = stepsOf(await readHistory(session.history()), "openai:gpt-4o-mini");
        const fast = await readThreadHistory(
          db.checkpointer,
          session.agent,
          id,
          "openai:gpt-4o-mini",
        );
        expect(fast.steps).toEqual(full);
        expect(fast.steps.flatMap((s) => s.messages).length).toBeGreaterThan(1);
      } finally {
        db.close();
        await session.close();
      }
    }
  });

  it("state at a checkpoint holds the messages and files as they were then; diff between steps is unified", async () => {
    const { body } = await get(`/api/threads/${done}`);
    const steps = body.steps;
    const wrote = steps.findIndex((s: any) => s.messages.some((m: any) => m.name === "write_file"));
    const edited = steps.findIndex((s: any) => s.messages.some((m: any) => m.name === "edit_file"));
    const at = (i: number) =>
      get(`/api/threads/${done}/state?checkpoint=${steps[i].checkpoint_id}`);
    const before = (await at(wrote - 1)).body;
    // notes.txt was there before the run: it shows as it was.
    expect(before.files).toEqual({ "notes.txt": "alpha\n" });
    const afterWrite = (await at(wrote)).body;
    expect(afterWrite.files).toEqual({ "hello.txt": "one\n", "notes.txt": "alpha\n" });
    expect(afterWrite.messages.length).toBeLessThan(
      body.steps.flatMap((s: any) => s.messages).length,
    );
    const afterEdit = (await at(edited)).body;
    expect(afterEdit.files).toEqual({ "hello.txt": "one\n", "notes.txt": "beta\n" });
    const diff = (
      await get(
        `/api/threads/${done}/diff?from=${steps[wrote].checkpoint_id}&to=${steps[edited].checkpoint_id}`,
      )
    ).body;
    expect(diff.files).toHaveLength(1);
    expect(diff.files[0]).toMatchObject({ path: "notes.txt", op: "edit" });
    expect(diff.files[0].diff).toContain("-alpha\n+beta");
    const whole = (await get(`/api/threads/${done}/diff`)).body.files;
    expect(whole.map((f: any) => [f.path, f.op])).toEqual([
      ["hello.txt", "create"],
      ["notes.txt", "edit"],
    ]);
    expect((await get(`/api/threads/${done}/state?checkpoint=nope`)).status).toBe(404);
  });

  it("two concurrent decide POSTs: one 200 that runs the call once, one 409 already decided", async () => {
    const pending = (await get("/api/pending")).body.pending;
    expect(pending).toEqual([
      expect.objectContaining({
        thread_id: paused,
        tool: "execute",
        args: { command: "echo ran >> log.txt" },
      }),
    ]);
    h.openai.script([{ text: "logged" }]);
    const post = () =>
      fetch(new URL(`/api/threads/${paused}/decide`, ui.url), {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ decisions: [{ type: "approve" }] }),
      });
    const [a, b] = await Promise.all([post(), post()]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const winner = a.status === 200 ? a : b;
    const loser = a.status === 200 ? b : a;
    expect(((await winner.json()) as any).result).toMatchObject({
      status: "completed",
      answer: "logged",
    });
    expect(((await loser.json()) as any).error).toBe("already decided");
    expect(fs.readFileSync(path.join(ws, "log.txt"), "utf8")).toBe("ran\n");
    expect((await get(`/api/threads/${paused}`)).body.status).toBe("completed");
    expect((await get("/api/pending")).body.pending).toEqual([]);
  });
});

describe("delve ui refuses what a hostile page or network would send", () => {
  it("a POST from another origin, a foreign Host header (DNS rebinding) and a form-encoded POST are refused", async () => {
    const url = new URL(`/api/threads/${done}/decide`, ui.url);
    const crossOrigin = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: "http://evil.example" },
      body: JSON.stringify({ decisions: [{ type: "approve" }] }),
    });
    expect(crossOrigin.status).toBe(403);
    const form = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "decisions=approve",
    });
    expect(form.status).toBe(415);
    const rebound = await rawGet(ui.port, "/api/threads", "evil.example:4780");
    expect(rebound.status).toBe(421);
    const ok = await rawGet(ui.port, "/api/threads", `localhost:${ui.port}`);
    expect(ok.status).toBe(200);
    const page = await fetch(new URL("/", ui.url));
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
  });

  it("bound beyond loopback it requires the printed token (Bearer or ?token=)", async () => {
    const open = await serveUi(h, ws, "0.0.0.0");
    try {
      expect(open.token).toMatch(/^[\w-]{32}$/);
      expect(open.url).toContain(`?token=${open.token}`);
      // Any name the LAN uses reaches it; the token is what lets a request through.
      const host = `192.0.2.7:${open.port}`;
      expect((await rawGet(open.port, "/api/threads", host)).status).toBe(401);
      expect((await rawGet(open.port, "/api/threads?token=wrong", host)).status).toBe(401);
      expect((await rawGet(open.port, `/api/threads?token=${open.token}`, host)).status).toBe(200);
      const bearer = await rawGet(open.port, "/api/threads", host, {
        Authorization: `Bearer ${open.token}`,
      });
      expect(bearer.status).toBe(200);
      expect(JSON.parse(bearer.body).threads.length).toBe(2);
      const foreign = await rawGet(open.port, `/api/threads?token=${open.token}`, host, {
        Origin: "http://evil.example",
      });
      expect(foreign.status).toBe(403);
    } finally {
      await open.close();
    }
  });
});

// fetch() may not set Host: a raw request does.
function rawGet(
  port: number,
  route: string,
  host: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port, path: route, headers: { Host: host, ...headers } },
      (res) => {
        let body = "";
        res.on("data", (d) => {
          body += d;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}
