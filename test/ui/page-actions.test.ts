import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { UiServer } from "../../src/ui/server.js";
import { type Harness, startHarness } from "../cli/run-harness.js";
import { expectNonBlankPng, openPage } from "./chromium.js";
import { completedThread, pausedThread, serveUi } from "./ui-fixture.js";

// What the page does besides showing: fork from a step ("run from here" with an edited
// message: a new thread from the parent's state at that checkpoint, run by the same engine,
// showing where it came from), and one decision for every call waiting in the workspace.

vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

let h: Harness;
let ws: string;
let ui: UiServer;
let browser: Browser;
let page: Page;
let shots: string;
let done: string;
let paused: string;
let second: string;

const get = async (route: string) => {
  const response = await fetch(new URL(route, ui.url));
  return { status: response.status, body: (await response.json()) as any };
};
const fork = (id: string, body: unknown) =>
  fetch(new URL(`/api/threads/${id}/fork`, ui.url), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
// Polls a thread until it has a status other than running (a deadline, no bare sleep).
async function settled(id: string): Promise<any> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { body } = await get(`/api/threads/${id}`);
    if (body.status !== "running") return body;
    if (Date.now() > deadline) throw new Error(`thread ${id} still running`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const texts = (t: any) =>
  t.steps
    .flatMap((s: any) => s.messages)
    .map((m: any) => `${m.role}:${m.text || m.tool_calls?.[0]?.name}`);

beforeAll(async () => {
  h = await startHarness();
  ws = h.workspace({ "notes.txt": "alpha\n" });
  done = await completedThread(h, ws);
  paused = await pausedThread(h, ws);
  second = await pausedThread(h, ws, "echo second >> second.txt");
  ui = await serveUi(h, ws);
  ({ browser, page, shots } = await openPage());
});
afterAll(async () => {
  await browser?.close();
  await ui?.close();
  await h?.close();
});

describe("fork a thread from a step", () => {
  it("POST fork at the step of the write_file result: the new thread holds the parent's history up to there, then the new message and its answer", async () => {
    const parent = (await get(`/api/threads/${done}`)).body;
    const wrote = parent.steps.find((s: any) =>
      s.messages.some((m: any) => m.role === "tool" && m.name === "write_file"),
    );
    h.openai.script([{ text: "forked answer" }]);
    const response = await fork(done, {
      checkpoint_id: wrote.checkpoint_id,
      message: "stop here instead",
    });
    expect(response.status).toBe(202);
    const { thread_id } = (await response.json()) as any;
    const child = await settled(thread_id);
    expect(child.status).toBe("completed");
    expect(child.parent).toEqual({
      thread_id: done,
      checkpoint_id: wrote.checkpoint_id,
      step: wrote.step,
    });
    expect(child.title).toBe("stop here instead");
    expect(texts(child)).toEqual([
      "human:make hello\nsecond line",
      "ai:write_file",
      expect.stringMatching(/^tool:/),
      "human:stop here instead",
      "ai:forked answer",
    ]);
    // The model saw the parent's history before the new message, and no edit_file.
    const sent = h.openai
      .accepted()
      .at(-1)
      .messages.map((m: any) => m.role);
    expect(sent.slice(-4)).toEqual(["user", "assistant", "tool", "user"]);
    // The parent is untouched; the list shows the fork with where it came from.
    expect(texts((await get(`/api/threads/${done}`)).body)).toEqual(texts(parent));
    const listed = (await get("/api/threads")).body.threads.find((t: any) => t.id === thread_id);
    expect(listed.parent.thread_id).toBe(done);
  });

  it("a checkpoint whose tool calls have no results, or one of another thread, is refused with 400; an empty message too", async () => {
    const p = (await get(`/api/threads/${paused}`)).body;
    const last = p.steps.at(-1).checkpoint_id;
    const pending = await fork(paused, { checkpoint_id: last, message: "hi" });
    expect(pending.status).toBe(400);
    expect(((await pending.json()) as any).error).toContain("tool calls without results");
    const foreign = await fork(done, { checkpoint_id: last, message: "hi" });
    expect(foreign.status).toBe(400);
    expect((await fork(done, { checkpoint_id: null, message: " " })).status).toBe(400);
    expect((await fork("nope", { checkpoint_id: null, message: "x" })).status).toBe(404);
  });

  it("in the page: Edit and run from here on the task step runs the edited task in a new thread that links to its parent", async () => {
    await page.goto(`${ui.url}#/thread/${done}`);
    const first = page.locator("#timeline .step").first();
    await first.locator("button.fork-button").click();
    const box = first.locator("textarea.fork-message");
    expect(await box.inputValue()).toBe("make hello\nsecond line");
    await box.fill("say hi only");
    h.openai.script([{ text: "hi from the fork" }]);
    await first.locator("button.fork-run").click();
    await page.locator("#thread .status-completed").waitFor({ timeout: 60_000 });
    await page.locator("#timeline", { hasText: "hi from the fork" }).waitFor();
    expect(await page.locator("#thread .parent").textContent()).toBe(
      `forked from ${done.slice(0, 8)} before its first step`,
    );
    expect(await page.locator("#thread .title").textContent()).toBe("say hi only");
    await page.screenshot({ path: path.join(shots, "fork.png"), fullPage: true });
    expectNonBlankPng(path.join(shots, "fork.png"));
    // The parent link opens the parent; the list marks the forks.
    await page.locator("#thread .parent a").click();
    await page.locator("#thread .title", { hasText: "make hello" }).waitFor();
    await page.goto(`${ui.url}#/`);
    await page.locator(".thread-row").nth(3).waitFor();
    expect(await page.locator(".thread-row .parent").count()).toBe(2);
  });
});

describe("one decision for all pending calls", () => {
  it("Approve all on the pending page runs every waiting call once, each thread claimed on its own", async () => {
    await page.goto(`${ui.url}#/pending`);
    await page.locator("#pending button.approve-all").waitFor();
    expect(await page.locator("#pending button.approve-all").textContent()).toBe("Approve all 2");
    await page.screenshot({ path: path.join(shots, "pending-all.png"), fullPage: true });
    h.openai.script([{ text: "first logged" }, { text: "second logged" }]);
    await page.locator("#pending button.approve-all").click();
    await page.locator("#pending .notice").waitFor({ timeout: 60_000 });
    expect(await page.locator("#pending .notice").textContent()).toBe("2 thread(s) decided");
    expect(await page.locator("#pending .pending").count()).toBe(0);
    expect(fs.readFileSync(path.join(ws, "log.txt"), "utf8")).toBe("ran\n");
    expect(fs.readFileSync(path.join(ws, "second.txt"), "utf8")).toBe("second\n");
    for (const id of [paused, second]) expect((await settled(id)).status).toBe("completed");
  });
});
