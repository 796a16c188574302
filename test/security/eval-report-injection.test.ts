import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { compareReports, renderHtmlReport, runTaskSet } from "delve/evals";
import { type BrowserContext, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setOf, sloppy } from "../evals/report-fixtures.js";
import { CHROMIUM, CHROMIUM_ARGS } from "../ui/chromium.js";

// `delve eval --compare old.json` reads a report from a file anyone may have written: no value
// in it may become live markup in the HTML report, and the page's CSP stops what slips by.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "delve-report-attack-"));
let browser: BrowserContext;
beforeAll(async () => {
  browser = await chromium.launchPersistentContext(fs.mkdtempSync(path.join(dir, "profile-")), {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const PAYLOAD = (n: number) =>
  `<img src=x onerror="window.__pwned=${n}"><script>window.__pwned=${n}</script><svg onload="window.__pwned=${n}">`;

// A previous report with markup in every field the comparison reads, numbers included.
function craftedPrevious(real: any): any {
  const old = structuredClone(real);
  old.summary.passRate = PAYLOAD(1);
  const task = old.tasks[0];
  task.pass = true;
  task.passRate = PAYLOAD(2);
  for (const run of task.runs) {
    run.modelCalls = PAYLOAD(3);
    run.toolErrors = PAYLOAD(4);
    run.usage = { total: PAYLOAD(5) };
    run.cost = PAYLOAD(6);
  }
  old.tasks.push({ ...structuredClone(task), id: PAYLOAD(7) });
  return old;
}

async function open(html: string) {
  const file = path.join(dir, `report-${Math.random().toString(36).slice(2)}.html`);
  fs.writeFileSync(file, html);
  const page = await browser.newPage();
  const console: string[] = [];
  const dialogs: string[] = [];
  page.on("console", (m) => console.push(m.text()));
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto(`file://${file}`);
  await page.waitForLoadState("load");
  return { page, console, dialogs };
}

describe("the HTML eval report against a crafted --compare report, in Chromium", () => {
  it("markup in a previous report's numbers and ids is shown as text and never runs", async () => {
    const after = await runTaskSet(setOf(), { model: sloppy });
    const before = craftedPrevious(JSON.parse(JSON.stringify(after)));
    const html = renderHtmlReport(after, compareReports(before, after));
    expect(html).not.toMatch(/<script|<img|<svg/i);
    const { page, dialogs } = await open(html);
    expect(await page.evaluate("window.__pwned")).toBeUndefined();
    expect(await page.locator("script, img, svg").count()).toBe(0);
    expect(dialogs).toEqual([]);
    // The forged task id is listed as text among the removed tasks.
    expect(await page.locator("body").textContent()).toContain(`removed: ${PAYLOAD(7)}`);
    await page.close();
  }, 60_000);

  it("the page's CSP stops a script, an event handler and a style that slipped past escaping", async () => {
    const after = await runTaskSet(setOf(), { model: sloppy });
    const html = renderHtmlReport(after).replace(
      "<h1>",
      `<script>window.__csp=1</script><img src=x onerror="window.__csp=2"><style>h1{color:rgb(1,2,3)}</style><h1>`,
    );
    const { page, console } = await open(html);
    expect(await page.evaluate("window.__csp")).toBeUndefined();
    expect(
      await page.locator("h1").evaluate((h) => (globalThis as any).getComputedStyle(h).color),
    ).not.toBe("rgb(1, 2, 3)");
    expect(console.join("\n")).toMatch(/Content Security Policy/);
    await page.close();
  }, 60_000);

  it("each check's badge shows its own verdict inside a failed task", async () => {
    const after = await runTaskSet(setOf(), { model: sloppy });
    const { page } = await open(renderHtmlReport(after));
    const colour = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((el) => (globalThis as any).getComputedStyle(el).backgroundColor);
    expect(await page.locator("section.task.fail").count()).toBe(1); // look-up fails, refund passes
    expect(await colour("section.fail li.pass .badge")).toBe("rgb(31, 138, 76)");
    expect(await colour("section.fail li.fail .badge")).toBe("rgb(198, 47, 47)");
    expect(await colour("section.fail h2 .badge")).toBe("rgb(198, 47, 47)");
    expect(await colour('tr[data-task="look-up"] .badge')).toBe("rgb(198, 47, 47)");
    await page.close();
  }, 60_000);
});
