import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { UiServer } from "../../src/ui/server.js";
import { type Harness, startHarness } from "../cli/run-harness.js";
import { expectNonBlankPng, openPage } from "./chromium.js";
import { completedThread, pausedThread, serveUi } from "./ui-fixture.js";

// The `delve ui` page in real headless Chromium (Debian's), over threads made by `delve run`.

vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

let h: Harness;
let ws: string;
let ui: UiServer;
let browser: Browser;
let page: Page;
let shots: string;
let done: string;
let paused: string;
let raced: string;
let edited: string;

beforeAll(async () => {
  h = await startHarness();
  ws = h.workspace({ "notes.txt": "alpha\n" });
  done = await completedThread(h, ws, "plain\n");
  paused = await pausedThread(h, ws);
  raced = await pausedThread(h, ws, "echo raced >> race.txt");
  edited = await pausedThread(h, ws, "echo asked >> edit.txt");
  ui = await serveUi(h, ws);
  ({ browser, page, shots } = await openPage());
});
afterAll(async () => {
  await browser?.close();
  await ui?.close();
  await h?.close();
});

describe("delve ui in Chromium", () => {
  it("lists the threads, opens one: timeline with tool calls, files, a diff and a cost figure", async () => {
    await page.goto(ui.url);
    await page.locator(".thread-row").nth(3).waitFor();
    expect(await page.locator(".thread-row").count()).toBe(4);
    await page.screenshot({ path: path.join(shots, "threads.png"), fullPage: true });
    expectNonBlankPng(path.join(shots, "threads.png"));

    await page.selectOption("#status-filter", "paused");
    await page.waitForFunction(
      () => (globalThis as any).document.querySelectorAll(".thread-row").length === 3,
    );
    await page.goto(`${ui.url}#/thread/${done}`);
    await page.locator("#timeline .step").first().waitFor();
    const timeline = await page.locator("#timeline").textContent();
    expect(timeline).toContain("write_file");
    expect(timeline).toContain("edit_file");
    expect(timeline).toContain("all done");
    expect(await page.locator("#thread .cost").textContent()).toMatch(/^\$0\.0000\d\d$/);
    // Select the step of the edit: its diff shows the change to notes.txt.
    await page.locator(".step", { hasText: "edit_file → success" }).click();
    await page.locator("#files .diff .add").first().waitFor();
    expect(await page.locator("#files .diff .add").allTextContents()).toContain("+beta\n");
    expect(await page.locator("#files .diff .del").allTextContents()).toContain("-alpha\n");
    await page.screenshot({ path: path.join(shots, "thread.png"), fullPage: true });
    expectNonBlankPng(path.join(shots, "thread.png"));
  });

  it("approves a paused call from the page: the run finishes and the status becomes completed", async () => {
    await page.goto(`${ui.url}#/pending`);
    await page.locator("#pending .pending").nth(2).waitFor();
    expect(await page.locator("#pending").textContent()).toContain("echo ran >> log.txt");
    await page.screenshot({ path: path.join(shots, "pending.png"), fullPage: true });
    expectNonBlankPng(path.join(shots, "pending.png"));

    await page.goto(`${ui.url}#/thread/${paused}`);
    await page.locator("#pending-calls button.approve").waitFor();
    h.openai.script([{ text: "logged" }]);
    await page.locator("#pending-calls button.approve").click();
    await page.locator("#thread .status-completed").waitFor({ timeout: 60_000 });
    expect(fs.readFileSync(path.join(ws, "log.txt"), "utf8")).toBe("ran\n");
    expect(await page.locator("#timeline").textContent()).toContain("logged");
  });

  it("two tabs approving at once: the call runs once and the other tab is told already decided", async () => {
    const other = await browser.newPage();
    await Promise.all(
      [page, other].map(async (p) => {
        await p.goto(`${ui.url}#/thread/${raced}`);
        await p.locator("#pending-calls button.approve").waitFor();
      }),
    );
    h.openai.script([{ text: "raced once" }]);
    await Promise.all([
      page.locator("#pending-calls button.approve").click(),
      other.locator("#pending-calls button.approve").click(),
    ]);
    await Promise.all([page, other].map((p) => p.locator("#thread .status-completed").waitFor()));
    const notices = await Promise.all(
      [page, other].map((p) => p.locator(".notice").allTextContents()),
    );
    expect(notices.flat()).toEqual(["already decided"]);
    expect(fs.readFileSync(path.join(ws, "race.txt"), "utf8")).toBe("raced\n");
    await other.close();
  });

  it("Approve edited runs the arguments typed in the page", async () => {
    await page.goto(`${ui.url}#/thread/${edited}`);
    await page.locator("#pending-calls textarea.edit-args").waitFor();
    await page
      .locator("#pending-calls textarea.edit-args")
      .fill('{"command": "echo edited >> edit.txt"}');
    h.openai.script([{ text: "edited it" }]);
    await page.locator("#pending-calls button.edit").click();
    await page.locator("#thread .status-completed").waitFor();
    expect(fs.readFileSync(path.join(ws, "edit.txt"), "utf8")).toBe("edited\n");
  });

  it("the blank-screenshot check catches a blank page", async () => {
    const blank = await browser.newPage();
    await blank.screenshot({ path: path.join(shots, "blank.png") });
    await blank.close();
    expect(() => expectNonBlankPng(path.join(shots, "blank.png"))).toThrow();
  });
});
