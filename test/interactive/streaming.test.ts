import { afterAll, describe, expect, it, vi } from "vitest";
import { type Pane, startPane, tmuxHarness, until } from "./tmux.js";

// The assistant's text as it streams, through a real pseudo-terminal: the real ChatOpenAI
// reads the fake's server-sent events; the fake holds the stream mid-answer until the test
// has seen the partial text on screen, then lets it finish.

vi.setConfig({ testTimeout: 120_000 });

const h = tmuxHarness();

const MODEL = ["--model", "openai:delve-unpriced-model"];
const PROMPT = "› ▌";
const ESC = String.fromCharCode(27);
const times = (screen: string, text: string) => screen.split(text).length - 1;

describe("streamed text, 60 columns, NO_COLOR", () => {
  let pane: Pane;
  afterAll(() => pane?.close());

  it("shows the text growing before the turn ends, then once, whole", async () => {
    const ws = h.workspace();
    h.openai.script([
      { text: "Partial words come first and the rest after release.", holdAfter: 3 },
    ]);
    pane = startPane({ cwd: ws, env: h.env(), args: MODEL, cols: 60 });
    await pane.waitFor(PROMPT);
    pane.type("stream something");
    pane.keys("Enter");
    const partial = await pane.waitFor("Partial words come");
    await until(() => h.openai.holding() === 1, "the fake holds the stream");
    // Mid-answer: the rest has not come, the turn still runs.
    expect(pane.screen({ history: true })).not.toContain("first and");
    expect(partial).toMatch(/working · \d+s · Esc interrupts/);
    expect(partial).not.toContain("✓ done");
    expect(h.openai.accepted().at(-1)).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
    h.openai.release();
    const done = await pane.waitFor("✓ done");
    // The growing block gave way to the whole text: it is on screen once.
    expect(times(done, "Partial words come first and the rest after release.")).toBe(1);
    expect(times(done, "Partial words come")).toBe(1);
    for (const line of done.split("\n")) expect(line.length).toBeLessThanOrEqual(60);
    // The usage of the streamed call reached the status line (the fake's 10 in / 5 out).
    expect(done).toMatch(/ · ask · \d+ in \/ 5 out · /);
    expect(pane.screen({ history: true, escapes: true })).not.toMatch(new RegExp(`${ESC}\\[3\\d`));
  });

  it("a long streamed text wraps at 60 columns and ends as the same lines", async () => {
    const long = Array.from(
      { length: 6 },
      (_, i) => `Sentence ${i + 1} streams in slowly, word by word.`,
    ).join(" ");
    h.openai.script([{ text: long, holdAfter: 20 }]);
    pane.type("a long one");
    pane.keys("Enter");
    await pane.waitFor("Sentence 3");
    await until(() => h.openai.holding() === 1, "the fake holds the stream");
    const mid = pane.screen();
    for (const line of mid.split("\n")) expect(line.length).toBeLessThanOrEqual(60);
    expect(mid).not.toContain("Sentence 6");
    h.openai.release();
    const done = await pane.waitFor(/✓ done[\s\S]*✓ done/);
    expect(times(done.replace(/\s+/g, " "), "Sentence 6 streams in slowly")).toBe(1);
    expect(times(done.replace(/\s+/g, " "), "Sentence 1 streams in slowly")).toBe(1);
  });

  it("Esc mid-stream keeps what was written, marked as cut off", async () => {
    h.openai.script([{ text: "Half of this sentence and never the end.", holdAfter: 3 }]);
    pane.type("cut me off");
    pane.keys("Enter");
    await pane.waitFor("Half of this");
    await until(() => h.openai.holding() === 1, "the fake holds the stream");
    pane.keys("Escape");
    const screen = await pane.waitFor("⏹ interrupted · the thread is kept");
    expect(screen).toContain("Half of this …");
    expect(screen).not.toContain("never the end");
    await pane.waitFor(PROMPT);
  });

  it("two parallel subagents of one name stream into their own blocks, each under its task", async () => {
    // The stream Esc cut off still waits at its hold: let it go.
    if (h.openai.holding()) h.openai.release();
    h.openai.script([
      {
        toolCalls: [
          { name: "task", args: { description: "alpha job", subagent_type: "general-purpose" } },
          { name: "task", args: { description: "beta job", subagent_type: "general-purpose" } },
        ],
      },
      { text: "Red fox runs far away.", holdAfter: 2 },
      { text: "Blue whale swims deep down.", holdAfter: 2 },
      { text: "Both helpers answered." },
    ]);
    pane.type("ask two helpers");
    pane.keys("Enter");
    await pane.waitFor("▶ subagent general-purpose");
    // Both held mid-answer: each run's pieces so far, in its own block.
    await until(() => h.openai.holding() === 2, "the fake holds both subagents' streams");
    const mid = await pane.waitFor(/Red fox[\s\S]*Blue whale|Blue whale[\s\S]*Red fox/);
    const lines = mid.split("\n").map((l) => l.trim());
    // Which task a block is under: its own heading, or (when its run's lines came last) the
    // task call it follows. Which helper got which text depends on which asked first.
    const owner = (text: string) => {
      for (let i = lines.indexOf(text) - 1; i >= 0; i--) {
        const task = /^(?:↳|● task) general-purpose: (\w+) job$/.exec(lines[i] ?? "");
        if (task) return task[1];
      }
      return undefined;
    };
    expect([owner("Red fox"), owner("Blue whale")].sort()).toEqual(["alpha", "beta"]);
    h.openai.release();
    const done = await pane.waitFor("Both helpers answered.");
    const flat = done.replace(/\s+/g, " ");
    expect(times(flat, "Red fox runs far away.")).toBe(1);
    expect(times(flat, "Blue whale swims deep down.")).toBe(1);
    expect(flat).not.toMatch(/Red fox Blue|Blue whale Red/);
    await pane.waitFor(PROMPT);
  });

  it("a call retried after it broke off mid-answer restarts the block with the retry's text", async () => {
    h.openai.script([
      { text: "Broken answer that never ends.", dropAfter: 2 },
      { text: "Fresh answer after the retry.", holdAfter: 2 },
    ]);
    pane.type("try twice");
    pane.keys("Enter");
    await pane.waitFor("Broken answer");
    await until(() => h.openai.holding() === 1, "the fake holds the retry's stream");
    const mid = await pane.waitFor("Fresh answer");
    expect(mid.slice(mid.lastIndexOf("try twice"))).not.toContain("Broken answer");
    h.openai.release();
    const done = await pane.waitFor("Fresh answer after the retry.");
    expect(done.slice(done.lastIndexOf("try twice"))).not.toContain("Broken");
  });
});
