/**
 * The `delve ui` benchmark: a thread of about 1,000 checkpoints made through the engine (a
 * scripted agent module writing one file per turn), then the thread view's API latency (cold:
 * the history read; warm: cached at rest) and, in Debian's headless Chromium, the time to
 * first paint and to an interactive timeline (every step in the DOM and a click on a step
 * answered with its files), with the bytes the page loads.
 *
 * @example
 * npx tsx bench/run.ts --only viewer
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openSession } from "../src/run/engine.js";
import { startUi } from "../src/ui/server.js";
import { type BenchOptions, type BenchReport, formatMs, target } from "./lib/report.js";

const AGENT = fileURLToPath(new URL("./lib/viewer-agent.ts", import.meta.url));
const CHROMIUM = "/usr/bin/chromium";
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function makeThread(workspace: string, turns: number): Promise<{ id: string; ms: number }> {
  process.env.DELVE_VIEWER_TURNS = String(turns);
  const started = performance.now();
  const session = await openSession({
    workspace,
    agent: AGENT,
    model: "openai:gpt-4o-mini",
    sandbox: "none",
    approval: "yolo",
    title: "write the notes",
    env: { ...process.env, OPENAI_API_KEY: "bench-unused" },
  });
  try {
    for await (const event of session.send("write the notes")) {
      if (event.type === "result" && event.status !== "completed") {
        throw new Error(`the bench thread ended ${event.status}: ${event.error ?? ""}`);
      }
    }
    return { id: session.thread.id, ms: performance.now() - started };
  } finally {
    await session.close();
  }
}

/** Runs the viewer benchmark. */
export async function runViewerBench(options: BenchOptions): Promise<BenchReport> {
  // DELVE_VIEWER_TURNS overrides the size (two checkpoints per turn).
  const turns = Number(process.env.DELVE_VIEWER_TURNS) || (options.smoke ? 20 : 500);
  const runs = options.smoke ? 1 : 3;
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), "delve-bench-viewer-"));
  const made = await makeThread(workspace, turns);
  const ui = await startUi({ workspace, port: 0 });
  try {
    const url = new URL(`/api/threads/${made.id}`, ui.url);
    const timed = async () => {
      const t = performance.now();
      const body = await (await fetch(url)).text();
      return {
        ms: performance.now() - t,
        bytes: body.length,
        steps: JSON.parse(body).steps.length,
      };
    };
    const cold = await timed();
    // The built page is a file; from source the first request bundles it: do that first.
    await (await fetch(new URL("/app.js", ui.url))).text();
    const warm: number[] = [];
    for (let i = 0; i < 5; i++) warm.push((await timed()).ms);
    const page = fs.existsSync(CHROMIUM) ? await measurePage(ui.url, made.id, runs) : undefined;
    const rows = [
      ["thread made through the engine", `${cold.steps} steps`, formatMs(made.ms)],
      [
        "GET /api/threads/:id, cold (history read)",
        `${(cold.bytes / 1024).toFixed(0)} KB`,
        formatMs(cold.ms),
      ],
      ["GET /api/threads/:id, warm (median of 5)", "", formatMs(median(warm))],
    ];
    if (page) {
      rows.push(
        ["page: first contentful paint", "", formatMs(page.paint)],
        ["page: timeline drawn", `${page.rendered} steps rendered`, formatMs(page.drawn)],
        [
          "page: interactive timeline (all steps, a click answered)",
          "",
          formatMs(page.interactive),
        ],
        ["page payload (HTML, JS, CSS, API JSON)", `${(page.bytes / 1024).toFixed(0)} KB`, ""],
      );
    }
    return {
      title: `Viewer (delve ui) over a ${cold.steps}-step thread`,
      tables: [
        { caption: `median of ${runs} fresh page load(s)`, headers: ["what", "size", "ms"], rows },
      ],
      targets: page
        ? [
            target(
              `viewer: interactive timeline at ${cold.steps} steps`,
              page.interactive,
              1500,
              "ms",
            ),
          ]
        : [],
      notes: [
        "Interactive: from navigation start until the timeline is drawn (its last 200 steps with content; Show all draws the rest) and clicking one step shows its files.",
        ...(page
          ? [`page JS ${(page.script / 1024).toFixed(0)} KB of the payload.`]
          : ["chromium not found: page timings skipped."]),
      ],
    };
  } finally {
    await ui.close();
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}

async function measurePage(base: string, id: string, runs: number) {
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
  });
  const paint: number[] = [];
  const interactive: number[] = [];
  const drawn: number[] = [];
  let rendered = 0;
  let bytes = 0;
  let script = 0;
  try {
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const sizes: Array<Promise<number>> = [];
      let js = 0;
      if (process.env.DELVE_VIEWER_TRACE) {
        page.on("requestfinished", (r) => {
          const t = r.timing();
          console.error(
            `${r.url().slice(-60)} start ${t.startTime.toFixed(0)} end ${t.responseEnd.toFixed(0)}`,
          );
        });
      }
      page.on("response", (r) => {
        const size = r.body().then(
          (b) => b.length,
          () => 0,
        );
        if (r.url().endsWith("/app.js")) void size.then((n) => (js = n));
        sizes.push(size);
      });
      await page.goto(`${base}#/thread/${id}`);
      // The timeline is drawn when it says how many steps it rendered (a page of them).
      await page.locator("#timeline[data-rendered]").waitFor({ timeout: 60_000 });
      rendered = Number(await page.locator("#timeline").getAttribute("data-rendered"));
      drawn.push(await page.evaluate(() => performance.now()));
      // A click on the first step must answer with that step's files panel.
      await page.locator("#timeline .step").first().click();
      await page.locator("#timeline .step.selected").first().waitFor();
      await page.locator("#files h3").first().waitFor();
      interactive.push(await page.evaluate(() => performance.now()));
      paint.push(
        await page.evaluate(
          () => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN,
        ),
      );
      bytes = (await Promise.all(sizes)).reduce((a, b) => a + b, 0);
      script = js;
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return {
    paint: median(paint),
    drawn: median(drawn),
    rendered,
    interactive: median(interactive),
    bytes,
    script,
  };
}
