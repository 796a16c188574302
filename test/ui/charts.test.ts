import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { UiServer } from "../../src/ui/server.js";
import { type Harness, startHarness } from "../cli/run-harness.js";
import { expectNonBlankPng, openPage } from "./chromium.js";
import { serveUi, subagentThread } from "./ui-fixture.js";

// The surface chart, usage and cost per model and per agent, and a subagent's run nested
// under its task call, over a thread made by `delve run` that delegated to a subagent.

vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

let h: Harness;
let ws: string;
let ui: UiServer;
let browser: Browser;
let page: Page;
let shots: string;
let delegated: string;

const get = async (route: string) => {
  const response = await fetch(new URL(route, ui.url));
  return { status: response.status, body: (await response.json()) as any };
};

beforeAll(async () => {
  h = await startHarness();
  ws = h.workspace({});
  delegated = await subagentThread(h, ws);
  ui = await serveUi(h, ws);
  ({ browser, page, shots } = await openPage());
});
afterAll(async () => {
  await browser?.close();
  await ui?.close();
  await h?.close();
});

describe("surface and cost charts", () => {
  it("GET surface: the system prompt first, then every visible tool with chars and tokens, summing to the total", async () => {
    const { body } = await get(`/api/threads/${delegated}/surface`);
    expect(body.bars[0]).toMatchObject({ name: "system prompt", kind: "system_prompt" });
    const names = body.bars.map((b: any) => b.name);
    for (const tool of ["write_file", "edit_file", "execute", "task"])
      expect(names).toContain(tool);
    const sum = body.bars.reduce((n: number, b: any) => n + b.tokens, 0);
    expect(body.total.tokens).toBe(sum);
    expect(body.system_prompt_share).toBeCloseTo(body.bars[0].tokens / sum);
    for (const b of body.bars.slice(1)) expect(b.chars).toBeGreaterThan(b.tokens);
    expect(Array.isArray(body.hidden)).toBe(true);
    expect((await get("/api/threads/nope/surface")).status).toBe(404);
  });

  it("GET usage: per model and per agent (main and the subagent), calls, tokens and cost that add up", async () => {
    const { body } = await get(`/api/threads/${delegated}/usage`);
    expect(body.by_model.map((g: any) => [g.name, g.calls])).toEqual([["openai:gpt-4o-mini", 4]]);
    const agents = Object.fromEntries(body.by_agent.map((g: any) => [g.name, g.calls]));
    expect(agents).toEqual({ main: 2, "general-purpose": 2 });
    expect(body.total.calls).toBe(4);
    expect(body.total.cost_usd).toBeGreaterThan(0);
    const parts = body.by_agent.reduce((n: number, g: any) => n + g.cost_usd, 0);
    expect(parts).toBeCloseTo(body.total.cost_usd, 12);
    const thread = (await get(`/api/threads/${delegated}`)).body;
    expect(body.total.cost_usd).toBeCloseTo(thread.cost_usd, 12);
  });

  it("in the page: the surface and cost view draws one bar per tool and per agent, and the total cost", async () => {
    const surface = (await get(`/api/threads/${delegated}/surface`)).body;
    await page.goto(`${ui.url}#/thread/${delegated}`);
    await page.locator("#thread a.charts-link").click();
    await page.locator("#surface-chart rect.bar").first().waitFor();
    expect(await page.locator("#surface-chart rect.bar").count()).toBe(surface.bars.length);
    const widths = await page
      .locator("#surface-chart rect.bar")
      .evaluateAll((bars) => bars.map((b: any) => Number(b.getAttribute("width"))));
    const largest = surface.bars.reduce(
      (i: number, b: any, j: number, all: any[]) => (b.tokens > all[i].tokens ? j : i),
      0,
    );
    expect(Math.max(...widths)).toBe(widths[largest]);
    expect(await page.locator("#surface-chart .bar-label").allTextContents()).toContain(
      "write_file",
    );
    expect(await page.locator("#usage-by-agent rect.bar").count()).toBe(2);
    expect(await page.locator("#usage .usage-total").textContent()).toMatch(/^\$0\.0000\d\d$/);
    expect(await page.locator("#usage-by-agent .bar-label").allTextContents()).toEqual(
      expect.arrayContaining(["main", "general-purpose"]),
    );
    await page.screenshot({ path: path.join(shots, "charts.png"), fullPage: true });
    expectNonBlankPng(path.join(shots, "charts.png"));
  });

  it("in the timeline: the subagent's run is nested, collapsed, under its task result", async () => {
    await page.goto(`${ui.url}#/thread/${delegated}`);
    const run = page.locator("#timeline details.subagent");
    await run.waitFor();
    expect(await run.getAttribute("open")).toBeNull();
    expect(await run.locator("summary").textContent()).toMatch(
      /^subagent general-purpose · 2 model call\(s\) · \$0\.0000\d+$/,
    );
    await run.locator("summary").click();
    expect(await run.locator(".subagent-task").textContent()).toBe("write sub.txt");
    expect(await run.locator(".result").textContent()).toContain("sub done");
    await page.screenshot({ path: path.join(shots, "subagent.png"), fullPage: true });
    expectNonBlankPng(path.join(shots, "subagent.png"));
  });
});
