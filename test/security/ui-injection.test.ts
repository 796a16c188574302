import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { UiServer } from "../../src/ui/server.js";
import { type Harness, startHarness } from "../cli/run-harness.js";
import { launchChromium } from "../ui/chromium.js";
import { OPENAI, serveUi } from "../ui/ui-fixture.js";

// Hostile run data in the `delve ui` page: a file, an answer, tool arguments and a task that
// carry markup must show as text and run nothing.

vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

const HOSTILE = `<img src=x onerror="window.__pwned=1"></script><script>window.__pwned=2</script>`;

let h: Harness;
let ui: UiServer;
let browser: Browser;
let thread: string;

beforeAll(async () => {
  h = await startHarness();
  const ws = h.workspace();
  h.openai.script([
    {
      toolCalls: [
        { name: "write_file", args: { file_path: "/evil.html", content: `${HOSTILE}\n` } },
      ],
    },
    { text: `answer ${HOSTILE}` },
  ]);
  const run = await h.delve(ws, [
    "run",
    `task ${HOSTILE}`,
    ...OPENAI,
    "--approval",
    "yolo",
    "--output",
    "json",
  ]);
  thread = JSON.parse(run.stdout).thread_id;
  ui = await serveUi(h, ws);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await ui?.close();
  await h?.close();
});

describe("delve ui escapes every string of a run", () => {
  it("a hostile file, answer and task render as text; no script runs; no element is injected", async () => {
    const page = await browser.newPage();
    await page.goto(ui.url);
    await page.locator(".thread-row").waitFor();
    expect(await page.locator(".thread-row .title").textContent()).toBe(`task ${HOSTILE}`);
    await page.goto(`${ui.url}#/thread/${thread}`);
    await page.locator("#files pre.file").waitFor();
    expect(await page.locator("#files pre.file").textContent()).toBe(`${HOSTILE}\n`);
    expect(await page.locator("#timeline").textContent()).toContain(`answer ${HOSTILE}`);
    await page.locator(".step", { hasText: "write_file → success" }).click();
    await page.locator("#files .diff").waitFor();
    expect(await page.locator("#files .diff").textContent()).toContain(`+${HOSTILE}`);
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (globalThis as any).__pwned)).toBeUndefined();
    // Only the page's own script and no image element came from the run's data.
    expect(await page.locator("main img, main script").count()).toBe(0);
    await page.close();
  });

  it("the page is served under the strict CSP, so even an injected inline script would not run", async () => {
    const response = await fetch(ui.url);
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    const page = await browser.newPage();
    await page.goto(ui.url);
    await page.evaluate(() => {
      const s = (globalThis as any).document.createElement("script");
      s.textContent = "window.__inline = 1";
      (globalThis as any).document.body.append(s);
    });
    expect(await page.evaluate(() => (globalThis as any).__inline)).toBeUndefined();
    await page.close();
  });
});
