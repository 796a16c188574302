import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runTaskSet } from "delve/evals";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { NotAnEvalReportError, readEvalReport } from "../../src/ui/eval-report.js";
import { startUi, type UiServer } from "../../src/ui/server.js";
import { setOf, sloppy } from "../evals/report-fixtures.js";
import { expectNonBlankPng, launchChromium } from "./chromium.js";

// `delve ui --eval report.json`: a report from `delve eval` (runTaskSet), with markup planted
// in the strings a hostile report could carry: shown as text, never run.

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const PAYLOAD = `<img src=x onerror="window.__pwned=1"></script><script>window.__pwned=2</script>`;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "delve-ui-eval-"));
let ui: UiServer;
let browser: Browser;
let page: Page;
let shots: string;
const dialogs: string[] = [];

beforeAll(async () => {
  const report: any = await runTaskSet(setOf(), { model: sloppy });
  // Costs as a priced model would report them; a hostile task id and answer.
  for (const task of report.tasks) for (const run of task.runs) run.cost = 0.0015;
  report.summary.cost = 0.003;
  const refund = report.tasks.find((t: any) => t.id === "refund");
  refund.id = `refund ${PAYLOAD}`;
  refund.runs[0].answer = PAYLOAD;
  const file = path.join(dir, "report.json");
  fs.writeFileSync(file, JSON.stringify(report));
  ui = await startUi({ workspace: dir, port: 0, evalReport: file });
  shots = process.env.DELVE_UI_SHOTS ?? fs.mkdtempSync(path.join(dir, "shots-"));
  fs.mkdirSync(shots, { recursive: true });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
});
afterAll(async () => {
  await browser?.close();
  await ui?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("delve ui --eval", () => {
  it("lists the tasks with pass/fail, pass rate and cost; the summary's cost figure", async () => {
    await page.goto(ui.url);
    await page.locator(".eval-task").nth(1).waitFor();
    const rows = await page
      .locator(".eval-task")
      .evaluateAll((trs: any[]) =>
        trs.map((tr) => [
          tr.querySelector(".task-id")?.textContent,
          tr.querySelector(".status")?.textContent,
        ]),
      );
    expect(rows).toEqual([
      ["look-up", "fail"],
      [`refund ${PAYLOAD}`, "pass"],
    ]);
    expect(await page.locator(".eval-task .reason").first().textContent()).toContain(
      "refund_order",
    );
    expect(await page.locator("#eval .eval-cost").textContent()).toBe("$0.0030");
    expect(await page.locator("#eval .figures").textContent()).toContain(
      "2 tasks: 1 passed, 1 failed (50%)",
    );
    await page.screenshot({ path: path.join(shots, "eval.png"), fullPage: true });
    expectNonBlankPng(path.join(shots, "eval.png"));
  });

  it("a task shows each run's expectations, answer, trajectory and cost", async () => {
    await page.locator(".task-id", { hasText: "look-up" }).click();
    await page.locator("#eval-task .trajectory .msg").first().waitFor();
    const checks = await page.locator("#eval-task .expectations li").allTextContents();
    expect(checks[0]).toBe("✓ calledTool(get_order)");
    expect(checks[1]).toMatch(/^✗ readOnly\(\) — .*refund_order/);
    const trajectory = await page.locator("#eval-task .trajectory").textContent();
    expect(trajectory).toContain('get_order({"id":"ORD-1"})');
    expect(trajectory).toContain("refund_order");
    expect(await page.locator("#eval-task .answer").textContent()).toBe("Refunded it too.");
    expect(await page.locator("#eval-task .run-cost").textContent()).toBe("$0.0015");
    await page.screenshot({ path: path.join(shots, "eval-task.png"), fullPage: true });
    expectNonBlankPng(path.join(shots, "eval-task.png"));
  });

  it("markup in a task id and an answer renders as text and never runs", async () => {
    await page.goto(`${ui.url}#/`);
    await page.locator(".task-id", { hasText: "refund" }).click();
    await page.locator("#eval-task .answer").waitFor();
    expect(await page.locator("#eval-task .title").textContent()).toBe(`refund ${PAYLOAD}`);
    expect(await page.locator("#eval-task .answer").textContent()).toBe(PAYLOAD);
    expect(await page.locator("main img, main script").count()).toBe(0);
    expect(await page.evaluate("window.__pwned")).toBeUndefined();
    expect(dialogs).toEqual([]);
  });

  it("serves no thread API, and a file that is not a report is refused with its name", async () => {
    expect((await fetch(new URL("/api/threads", ui.url))).status).toBe(404);
    const bad = path.join(dir, "bad.json");
    fs.writeFileSync(bad, JSON.stringify({ tasks: [] }));
    expect(() => readEvalReport(bad)).toThrow(NotAnEvalReportError);
    expect(() => readEvalReport(path.join(dir, "missing.json"))).toThrow(/missing\.json/);
  });
});
