import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseEvalArgs, progressBar } from "../../src/cli/eval-command.js";
import { CLI_ARGV, ROOT } from "./delve-bin.js";

const DESK = "examples/ticket-desk/evals/tasks.ts";
const CASSETTE = "examples/ticket-desk/evals/desk.cassette.json";
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "delve-cli-eval-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// The CLI as a user runs it on a TypeScript task set.
function delve(...args: string[]) {
  const out = spawnSync(process.execPath, [...CLI_ARGV, ...args], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 90_000,
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: out.status, stdout: out.stdout, stderr: out.stderr };
}

describe("delve eval", () => {
  const json = path.join(dir, "before.json");

  it("replays the ticket desk offline: plain progress lines, a table, --json and --html, exit 0", () => {
    const html = path.join(dir, "report.html");
    const { code, stdout, stderr } = delve(
      "eval",
      DESK,
      "--replay",
      CASSETTE,
      "--json",
      json,
      "--html",
      html,
    );
    expect(stderr.split("\n").filter(Boolean)).toEqual([
      "ok   look-up-is-read-only",
      "ok   close-the-right-ticket",
      "ok   report-a-failed-update",
      "ok   check-before-taking",
      "ok   brief-of-unassigned",
    ]);
    const lines = stdout.split("\n");
    expect(lines[0]).toMatch(/^task\s+result\s+runs\s+calls\s+errors\s+tokens\s+time$/);
    expect(lines[1]).toMatch(/^look-up-is-read-only\s+pass\s+1\/1\s+2\s+0\s+0\s+\d+ ms$/);
    expect(stdout).toMatch(
      /5 tasks: 5 passed, 0 failed · 12 model calls · 0 tokens · \d+ ms \(replay\)/,
    );
    expect(code).toBe(0);
    const report = JSON.parse(fs.readFileSync(json, "utf8"));
    expect(report).toMatchObject({
      format: "delve-eval-report",
      taskSet: "ticket desk",
      mode: "replay",
    });
    expect(report.tasks).toHaveLength(5);
    expect(fs.readFileSync(html, "utf8")).toContain(
      '<tr class="pass" data-task="brief-of-unassigned">',
    );
  });

  it("a task that no longer matches its recording fails, exit 1, and --compare names the regression", () => {
    const { code, stdout, stderr } = delve(
      "eval",
      "test/cli/fixtures/drifted-desk.ts",
      "--replay",
      CASSETTE,
      "--compare",
      json,
    );
    const drift =
      "task look-up-is-read-only step 1 no longer matches its recorded request (the definition of tool get_ticket changed): re-record against a real model";
    expect(stderr).toContain(`FAIL look-up-is-read-only: ${drift}`);
    expect(stdout).toMatch(/^look-up-is-read-only\s+FAIL\s+0\/1/m);
    expect(stdout).toContain(`-> ${drift}`);
    expect(stdout).toContain("compared with the previous report: pass rate 100% -> 0%");
    expect(stdout).toContain(`  regressed: look-up-is-read-only (${drift})`);
    expect(code).toBe(1);
  });

  it("usage errors exit 2 and say what is wrong", () => {
    const wrongExport = delve("eval", "test/cli/fixtures/not-a-task-set.ts", "--replay", CASSETTE);
    expect([wrongExport.code, wrongExport.stderr.trim()]).toEqual([
      2,
      "delve eval: the default export of test/cli/fixtures/not-a-task-set.ts is not a task set made by defineTaskSet.",
    ]);
    const badCompare = delve("eval", DESK, "--replay", CASSETTE, "--compare", CASSETTE);
    expect([badCompare.code, badCompare.stderr.trim()]).toEqual([
      2,
      `delve eval: ${CASSETTE} is not a report written by delve eval --json.`,
    ]);
    expect(parseEvalArgs([DESK, "--record", "a.json", "--replay", CASSETTE])).toBe(
      "use --record or --replay, not both",
    );
    expect(parseEvalArgs([DESK])).toBe("give --model provider:model, or --replay a cassette");
    expect(parseEvalArgs([DESK, "--model", "openai:gpt-5.5", "--repeat", "0"])).toBe(
      '--repeat takes a whole number >= 1; got "0".',
    );
    expect(parseEvalArgs([DESK, "--replay", CASSETTE, "--verbose"])).toBe(
      "unknown flag --verbose for delve eval; did you mean --record. Run delve eval --help.",
    );
    expect(parseEvalArgs([DESK, "--replay", CASSETTE, "--onyl", "x"])).toBe(
      "unknown flag --onyl for delve eval; did you mean --only. Run delve eval --help.",
    );
    expect(parseEvalArgs([DESK, "--json"])).toBe("--json needs a value: --json FILE.");
    expect(parseEvalArgs([DESK, "--replay", CASSETTE, "--only", "a", "--only", "b"])).toEqual({
      module: DESK,
      flags: { replay: CASSETTE },
      only: ["a", "b"],
    });
    expect(parseEvalArgs(["--replay", CASSETTE])).toBe(
      "name the module whose default export is your task set",
    );
    expect(
      parseEvalArgs([DESK, "--model", "openai:gpt-5.5", "--record", "c.json", "--repeat", "3"]),
    ).toEqual({
      module: DESK,
      flags: { model: "openai:gpt-5.5", record: "c.json", repeat: "3" },
    });
    expect(
      progressBar({ done: 3, total: 6, task: "close-the-right-ticket", run: 0, pass: true }, 10),
    ).toBe("[#####-----] 3/6 close-the-right-ticket");
  });

  it("on a terminal it draws a progress bar instead of lines", () => {
    // script(1) gives the command a pseudo-terminal, as an interactive shell would.
    const command = [process.execPath, ...CLI_ARGV, "eval", DESK, "--replay", CASSETTE].join(" ");
    const out = spawnSync("script", ["-qec", command, "/dev/null"], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 90_000,
    });
    expect(out.stdout).toContain("] 5/5 ");
    expect(out.stdout).toMatch(/\[#{2,}-+\] [1-4]\/5 [\w-]+/);
    expect(out.stdout).not.toContain("ok   look-up-is-read-only");
    expect(out.stdout).toMatch(/look-up-is-read-only\s+pass\s+1\/1/);
    expect(out.status).toBe(0);
  });
});
