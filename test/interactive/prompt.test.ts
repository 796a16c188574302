import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { type Pane, startPane, tmuxHarness } from "./tmux.js";

// The prompt through a real pseudo-terminal: several lines in one prompt (a trailing `\`,
// Alt-Enter, Ctrl-J, a bracketed paste), and Up / Down through the workspace's earlier
// prompts, which outlive the session (.delve/prompt-history.jsonl).

vi.setConfig({ testTimeout: 120_000 });

const h = tmuxHarness();

const MODEL = ["--model", "openai:delve-unpriced-model"];
const PROMPT = "› ▌";
/** The last user message the model received. */
const lastUser = () =>
  h.openai
    .accepted()
    .at(-1)
    ?.messages.filter((m: any) => m.role === "user")
    .at(-1)?.content;

describe("a multi-line prompt and the prompt history", () => {
  let pane: Pane;
  let ws: string;
  afterAll(() => pane?.close());

  it("a trailing \\ then Enter, Alt-Enter, Ctrl-J and Shift-Enter continue the prompt; Enter sends it whole", async () => {
    ws = h.workspace();
    h.openai.script([{ text: "Got three lines." }]);
    pane = startPane({ cwd: ws, env: h.env(), args: MODEL });
    await pane.waitFor(PROMPT);
    pane.type("first line\\");
    pane.keys("Enter");
    await pane.waitFor(/› first line\n\s+▌/);
    pane.type("second line");
    pane.keys("M-Enter");
    pane.type("third line");
    pane.keys("C-j");
    pane.type("fourth");
    // Shift-Enter as a terminal that tells it apart sends it (CSI 13;2u).
    pane.type("\u001b[13;2u");
    pane.type("fifth");
    const typing = await pane.waitFor(
      /› first line\n\s+second line\n\s+third line\n\s+fourth\n\s+fifth▌/,
    );
    expect(typing).not.toContain("Got three lines.");
    expect(h.openai.remaining()).toBe(1);
    pane.keys("Enter");
    // The answer's text comes before the turn ends: wait for the run's line.
    await pane.waitFor(/Got three lines\.\n✓ done/);
    expect(lastUser()).toBe("first line\nsecond line\nthird line\nfourth\nfifth");
    expect(pane.screen({ history: true })).toMatch(/› first line\n\s+second line/);
  });

  it("a pasted text keeps its newlines and waits for Enter", async () => {
    h.openai.script([{ text: "Pasted fine." }]);
    await pane.waitFor(PROMPT);
    pane.paste("pasted one\npasted two\n");
    await pane.waitFor(/› pasted one\n\s+pasted two\n\s+▌/);
    expect(h.openai.remaining()).toBe(1);
    pane.keys("BSpace");
    pane.keys("Enter");
    await pane.waitFor(/Pasted fine\.\n✓ done/);
    expect(lastUser()).toBe("pasted one\npasted two");
  });

  it("Up and Down walk the earlier prompts; the draft comes back", async () => {
    await pane.waitFor(PROMPT);
    pane.type("a draft");
    pane.keys("Up");
    await pane.waitFor(/› pasted one\n\s+pasted two▌/);
    pane.keys("Up");
    await pane.waitFor(/fifth▌/);
    pane.keys("Down", "Down");
    await pane.waitFor("› a draft▌");
    pane.keys("Escape");
    await pane.waitFor(PROMPT);
  });

  it("the history outlives the session: a new one in the workspace has it under Up", async () => {
    pane.type("/quit");
    pane.keys("Enter");
    await pane.waitFor("[delve exited 0]");
    const file = path.join(ws, ".delve", "prompt-history.jsonl");
    const texts = fs
      .readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l).text);
    expect(texts).toEqual([
      "first line\nsecond line\nthird line\nfourth\nfifth",
      "pasted one\npasted two",
      "/quit",
    ]);
    pane.close();
    h.openai.script([{ text: "Again from history." }]);
    pane = startPane({ cwd: ws, env: h.env(), args: ["-c"] });
    await pane.waitFor(PROMPT);
    pane.keys("Up", "Up");
    await pane.waitFor(/› pasted one\n\s+pasted two▌/);
    pane.keys("Enter");
    await pane.waitFor("Again from history.");
    expect(lastUser()).toBe("pasted one\npasted two");
  });
});
