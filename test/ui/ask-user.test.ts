import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { UiServer } from "../../src/ui/server.js";
import { type Harness, startHarness } from "../cli/run-harness.js";
import { expectNonBlankPng, launchChromium } from "./chromium.js";
import { OPENAI, serveUi } from "./ui-fixture.js";

// ask_user in the viewer: a thread `delve run --ask-user` paused on a question is answered
// from the page, exactly once when two tabs answer at the same moment.

vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

let h: Harness;
let ws: string;
let ui: UiServer;
let browser: Browser;
let shots: string;

async function askedThread(question: string, choices: string[]): Promise<string> {
  h.openai.script([{ toolCalls: [{ name: "ask_user", args: { question, choices } }] }]);
  const run = await h.delve(ws, [
    "run",
    "paint the fence",
    ...OPENAI,
    "--ask-user",
    "--output",
    "json",
  ]);
  if (run.code !== 3) throw new Error(`expected a pause on the question: ${run.stderr}`);
  return JSON.parse(run.stdout).thread_id;
}
// The ask_user results the model was sent in its last request.
const toolResults = () =>
  h.openai
    .accepted()
    .at(-1)
    .messages.filter((m: any) => m.role === "tool")
    .map((m: any) => m.content);

beforeAll(async () => {
  h = await startHarness();
  ws = h.workspace({});
  ui = await serveUi(h, ws);
  shots = process.env.DELVE_UI_SHOTS ?? fs.mkdtempSync(path.join(os.tmpdir(), "delve-ui-shots-"));
  fs.mkdirSync(shots, { recursive: true });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await ui?.close();
  await h?.close();
});

describe("ask_user in delve ui", () => {
  it("a question shows with its choices; choosing one and Answer resumes the run with it", async () => {
    const thread = await askedThread("Which colour?", ["red", "blue"]);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${ui.url}#/pending`);
    await page.locator("#pending .question-entry").waitFor();
    expect(await page.locator("#pending .question-entry .question-text").textContent()).toBe(
      "asks: Which colour?",
    );
    await page.goto(`${ui.url}#/thread/${thread}`);
    await page.locator("#pending-calls .question").waitFor();
    expect(await page.locator("#pending-calls .choice-label").allTextContents()).toEqual([
      "red",
      "blue",
    ]);
    await page.screenshot({ path: path.join(shots, "question.png"), fullPage: true });
    expectNonBlankPng(path.join(shots, "question.png"));
    await page.locator("#pending-calls button.answer").click();
    expect(await page.locator("#pending-calls .decide-note").textContent()).toBe(
      "answer every question first",
    );
    await page.locator("#pending-calls input.choice[value=blue]").check();
    h.openai.script([{ text: "painted it blue" }]);
    await page.locator("#pending-calls button.answer").click();
    await page.locator("#thread .status-completed").waitFor({ timeout: 60_000 });
    expect(toolResults().at(-1)).toContain("blue");
    expect(await page.locator("#timeline").textContent()).toContain("painted it blue");
    await page.close();
  });

  it("two tabs answering at once: one answer stands, the other tab is told already decided", async () => {
    const thread = await askedThread("Which size?", ["small", "large"]);
    const tabs = await Promise.all([browser.newPage(), browser.newPage()]);
    for (const [tab, choice] of [
      [tabs[0]!, "small"],
      [tabs[1]!, "large"],
    ] as const) {
      await tab.goto(`${ui.url}#/thread/${thread}`);
      await tab.locator(`#pending-calls input.choice[value=${choice}]`).check();
    }
    h.openai.script([{ text: "sized once" }, { text: "sized twice" }]);
    await Promise.all(tabs.map((t) => t.locator("#pending-calls button.answer").click()));
    await Promise.all(tabs.map((t) => t.locator("#thread .status-completed").waitFor()));
    const notices = await Promise.all(tabs.map((t) => t.locator(".notice").allTextContents()));
    expect(notices.flat()).toEqual(["already decided"]);
    expect(h.openai.remaining()).toBe(1);
    const answered = toolResults().at(-1) as string;
    expect(answered.includes("small") !== answered.includes("large")).toBe(true);
    await Promise.all(tabs.map((t) => t.close()));
  });
});
