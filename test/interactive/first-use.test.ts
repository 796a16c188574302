import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { type Pane, startPane, tmuxHarness } from "./tmux.js";

// What a first-time user meets, through a real pseudo-terminal: the first screen says how to
// get help and how to leave (a resumed thread's too), a mistyped command gets the closest one
// (and no far-fetched guess), and a key that decides nothing at an approval says which do.

vi.setConfig({ testTimeout: 120_000 });

const h = tmuxHarness();

const MODEL = ["--model", "openai:delve-unpriced-model"];
const PROMPT = "› ▌";
const HINT = "type a task · /help for help · /quit or Ctrl-C twice exits";

describe("a first session", () => {
  let pane: Pane;
  let ws: string;
  afterAll(() => pane?.close());

  it("the first screen says how to get help and how to quit, in 60 columns", async () => {
    ws = h.workspace();
    pane = startPane({ cwd: ws, env: h.env(), args: MODEL, cols: 60 });
    const first = await pane.waitFor(PROMPT);
    expect(first).toContain(HINT);
    for (const line of first.split("\n")) expect(line.length).toBeLessThanOrEqual(60);
    pane.close();
    pane = startPane({ cwd: ws, env: h.env(), args: MODEL, cols: 90 });
    await pane.waitFor(PROMPT);
  });

  it("a mistyped command gets the closest one; a far one and a bare / get the way to the list", async () => {
    const notice = async (typed: string, expected: string) => {
      pane.type(typed);
      pane.keys("Enter");
      const screen = await pane.waitFor(expected);
      return screen.slice(screen.lastIndexOf(PROMPT));
    };
    await notice("/hlep", "unknown command /hlep; did you mean /help? (/help lists them)");
    await notice("/rew 1", "unknown command /rew; did you mean /rewind?");
    const far = await notice("/foo", "unknown command /foo (/help lists them)");
    expect(far).not.toContain("did you mean");
    await notice("/", "type a command after / (Tab completes it; /help lists them)");
    // None of them reached the model.
    expect(h.openai.accepted()).toEqual([]);
  });

  it("at an approval, a key that decides nothing says which keys do; nothing runs", async () => {
    h.openai.script([
      { toolCalls: [{ name: "write_file", args: { file_path: "/a.txt", content: "a\n" } }] },
      { text: "Wrote it." },
    ]);
    pane.type("write a");
    pane.keys("Enter");
    await pane.waitFor("y approve · n reject · e edit · a always");
    pane.type("x");
    await pane.waitFor("waiting for your decision: y approve · n reject · e edit · a always");
    pane.keys("Enter");
    expect(fs.existsSync(path.join(ws, "a.txt"))).toBe(false);
    expect(h.openai.accepted()).toHaveLength(1);
    pane.type("y");
    await pane.waitFor("Wrote it.");
    expect(fs.readFileSync(path.join(ws, "a.txt"), "utf8")).toBe("a\n");
  });

  it("a failed turn says the thread is kept and what to do next", async () => {
    h.openai.script([{ fail: "The model is not available to this key." }, { text: "Back again." }]);
    pane.type("fail once");
    pane.keys("Enter");
    const failed = await pane.waitFor("the thread is kept: type to try again, or /model to switch");
    expect(failed.slice(failed.lastIndexOf("› fail once"))).toMatch(/✗ failed: .*not available/s);
    pane.type("again");
    pane.keys("Enter");
    await pane.waitFor("Back again.");
  });

  it("a resumed thread's first screen has the same hint", async () => {
    pane.close();
    pane = startPane({ cwd: ws, env: h.env(), args: [...MODEL, "-c"], cols: 90 });
    const resumed = await pane.waitFor(PROMPT);
    expect(resumed).toMatch(/thread \S+ · resumed/);
    expect(resumed).toContain("› again");
    expect(resumed).toContain(HINT);
  });
});
