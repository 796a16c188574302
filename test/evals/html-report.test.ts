import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { compareReports, renderHtmlReport, runTaskSet } from "delve/evals";
import { afterAll, describe, expect, it } from "vitest";
import { countColor, decodePng, luminanceSpread } from "./png.js";
import { good, setOf, sloppy } from "./report-fixtures.js";

const chromium = spawnSync("sh", ["-c", "command -v chromium"], { encoding: "utf8" }).stdout.trim();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "delve-html-"));
// Its own profile directory, so parallel Chromium runs never share a profile lock.
const profile = () => `--user-data-dir=${fs.mkdtempSync(path.join(dir, "profile-"))}`;
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// Chromium is installed by .ci/setup; on a machine without it the test is skipped, in CI it must run.
const needsChromium = !chromium && !process.env.CI;

describe.skipIf(needsChromium)("the HTML report in headless Chromium", () => {
  it("renders the pass table, each task's timeline and the before/after comparison", async () => {
    const before = await runTaskSet(setOf(), { model: good });
    const after = await runTaskSet(setOf(), { model: sloppy });
    const file = path.join(dir, "report.html");
    fs.writeFileSync(file, renderHtmlReport(after, compareReports(before, after)));
    const html = fs.readFileSync(file, "utf8");
    expect(html).not.toMatch(/<script|<link|src="http/);

    const run = (...args: string[]) =>
      execFileSync(
        chromium || "chromium",
        [
          "--headless",
          "--no-sandbox",
          "--disable-gpu",
          profile(),
          "--window-size=1200,1400",
          ...args,
          `file://${file}`,
        ],
        {
          encoding: "utf8",
          stdio: ["ignore", "pipe", "ignore"],
          timeout: 60_000,
        },
      );
    const dom = run("--dump-dom");
    const rows = [...dom.matchAll(/<tr class="(pass|fail)" data-task="([^"]+)"/g)].map((m) => [
      m[2],
      m[1],
    ]);
    expect(rows).toEqual([
      ["look-up", "fail"],
      ["refund", "pass"],
    ]);
    expect(dom).toContain('<tr class="fail" data-flip="look-up">');
    expect(dom).toMatch(
      /<tr data-moved="look-up"><td>look-up<\/td><td>modelCalls<\/td><td class="num">2<\/td><td class="num worse">3<\/td>/,
    );
    // One timeline per task, with the model turns and tool results in order.
    const timeline = dom.slice(dom.indexOf('id="task-look-up"'), dom.indexOf('id="task-refund"'));
    expect([...timeline.matchAll(/<li class="ev-(\w+)/g)].map((m) => m[1])).toEqual([
      "model",
      "tool",
      "model",
      "tool",
      "model",
    ]);
    expect(timeline).toContain("refund_order changes data, but was called at step 2");
    // The task set's name and the model's text are escaped, not markup.
    expect(dom).toContain("orders &lt;desk&gt;");
    expect(dom).toContain("Refunded ORD-2 &lt;b&gt;now&lt;/b&gt;.");

    const shot = path.join(dir, "report.png");
    run(`--screenshot=${shot}`);
    const png = decodePng(fs.readFileSync(shot));
    expect([png.width, png.height]).toEqual([1200, 1400]);
    expect(luminanceSpread(png)).toBeGreaterThan(20);
    // The pass and fail badges are drawn in their colours.
    expect(countColor(png, "#1f8a4c")).toBeGreaterThan(200);
    expect(countColor(png, "#c62f2f")).toBeGreaterThan(200);
  }, 120_000);

  it("a blank page fails the screenshot check (the check can fail)", () => {
    const file = path.join(dir, "blank.html");
    fs.writeFileSync(file, "<!doctype html><html><body></body></html>");
    const shot = path.join(dir, "blank.png");
    execFileSync(
      chromium || "chromium",
      [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        profile(),
        "--window-size=400,300",
        `--screenshot=${shot}`,
        `file://${file}`,
      ],
      { stdio: "ignore", timeout: 60_000 },
    );
    const png = decodePng(fs.readFileSync(shot));
    expect(luminanceSpread(png)).toBeLessThan(1);
    expect(countColor(png, "#c62f2f")).toBe(0);
  }, 60_000);
});
