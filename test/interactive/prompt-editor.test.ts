import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Line } from "../../src/interactive/lines.js";
import {
  cleanText,
  HISTORY_LIMIT,
  PromptEditor,
  PromptHistory,
} from "../../src/interactive/prompt.js";
import { TranscriptFolder } from "../../src/interactive/transcript.js";

// The prompt's editing and history, and the live text block, without a terminal (the tmux
// tests drive the same code through keys).

const workspace = () => fs.mkdtempSync(path.join(os.tmpdir(), "delve-prompt-"));
const historyFile = (ws: string) => path.join(ws, ".delve", "prompt-history.jsonl");

describe("PromptEditor", () => {
  it("a trailing \\ continues on a new line; Enter then returns the whole text and records it", () => {
    const ws = workspace();
    const editor = new PromptEditor(new PromptHistory(ws));
    editor.insert("one\\");
    expect(editor.enter()).toBeUndefined();
    editor.insert("two");
    expect(editor.lines("user").map((l) => l.text)).toEqual(["› one", "  two▌"]);
    expect(editor.enter()).toBe("one\ntwo");
    expect(editor.text).toBe("");
    expect(new PromptHistory(ws).entries).toEqual(["one\ntwo"]);
  });

  it("keeps pasted newlines (CR, CRLF) and drops control bytes", () => {
    expect(cleanText("a\r\nb\rc\td\u0007e")).toBe("a\nb\nc  de");
  });

  it("Up and Down walk the history and bring the draft back; a blank Enter records nothing", () => {
    const ws = workspace();
    const history = new PromptHistory(ws);
    history.add("first");
    history.add("second");
    history.add("second");
    const editor = new PromptEditor(history);
    editor.insert("draft");
    editor.up();
    expect(editor.text).toBe("second");
    editor.up();
    editor.up();
    expect(editor.text).toBe("first");
    editor.down();
    expect(editor.text).toBe("second");
    editor.down();
    expect(editor.text).toBe("draft");
    editor.clear();
    editor.insert("   ");
    editor.enter();
    expect(history.entries).toEqual(["first", "second"]);
  });

  it("the file keeps the last HISTORY_LIMIT prompts and skips a torn line", () => {
    const ws = workspace();
    fs.mkdirSync(path.dirname(historyFile(ws)));
    const lines = Array.from({ length: HISTORY_LIMIT }, (_, i) =>
      JSON.stringify({ text: `p${i}` }),
    );
    fs.writeFileSync(historyFile(ws), `${lines.join("\n")}\n{"text": "tor`);
    const history = new PromptHistory(ws);
    expect(history.entries).toHaveLength(HISTORY_LIMIT);
    history.add("newest");
    const again = new PromptHistory(ws).entries;
    expect(again).toHaveLength(HISTORY_LIMIT);
    expect(again[0]).toBe("p1");
    expect(again.at(-1)).toBe("newest");
  });
});

describe("TranscriptFolder's live text", () => {
  const folder = () => {
    const written: Line[][] = [];
    const f = new TranscriptFolder((lines) => written.push(lines), {
      model: "m",
      approval: "ask",
      input: 0,
      output: 0,
      cost: 0,
      context: 0,
    });
    return { f, written };
  };

  it("grows with each delta and gives way to the whole text, written once", () => {
    const { f, written } = folder();
    f.event({ v: 1, type: "text_delta", agent: "main", text: "Hel" });
    f.event({ v: 1, type: "text_delta", agent: "main", text: "lo" });
    expect(f.liveLines().map((l) => l.text)).toEqual(["Hello"]);
    expect(written).toEqual([]);
    f.event({ v: 1, type: "text", agent: "main", text: "Hello" });
    expect(f.liveLines()).toEqual([]);
    expect(written.map((l) => l.map((x) => x.text))).toEqual([["Hello"]]);
  });

  it("a run cut off mid-text keeps the partial text, marked", () => {
    const { f, written } = folder();
    f.event({ v: 1, type: "text_delta", agent: "general-purpose", text: "Half of it " });
    f.event({
      v: 1,
      type: "result",
      thread_id: "t",
      status: "limit",
      limit: "interrupted",
      answer: "",
      turns: 1,
      tool_calls: 0,
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      cost_usd: 0,
      duration_ms: 1,
    });
    expect(written[0]).toEqual([{ text: "Half of it …", tone: "dim", indent: 4 }]);
    expect(f.liveLines()).toEqual([]);
  });

  const task = (id: string, description: string) =>
    ({
      v: 1,
      type: "tool_call",
      agent: "main",
      call_id: id,
      tool: "task",
      args: { description, subagent_type: "general-purpose" },
    }) as const;

  it("two subagent runs of one name stream into their own blocks, each under its task", () => {
    const { f, written } = folder();
    f.event(task("c1", "alpha job"));
    f.event(task("c2", "beta job"));
    const delta = (t: string, text: string) =>
      f.event({ v: 1, type: "text_delta", agent: "general-purpose", task: t, text });
    delta("c1", "Alpha ");
    delta("c2", "Beta ");
    delta("c1", "one");
    delta("c2", "two");
    expect(f.liveLines().map((l) => [l.text, l.indent])).toEqual([
      ["↳ general-purpose: alpha job", 2],
      ["Alpha one", 4],
      ["↳ general-purpose: beta job", 2],
      ["Beta two", 4],
    ]);
    f.event({ v: 1, type: "text", agent: "general-purpose", task: "c2", text: "Beta two" });
    expect(f.liveLines().map((l) => l.text)).toEqual(["↳ general-purpose: alpha job", "Alpha one"]);
    expect(written.at(-1)?.map((l) => l.text)).toEqual(["↳ general-purpose: beta job", "Beta two"]);
  });

  it("a retried call's restart replaces the block's text", () => {
    const { f } = folder();
    f.event({ v: 1, type: "text_delta", agent: "main", text: "Broken " });
    f.event({ v: 1, type: "text_delta", agent: "main", text: "Fresh ", restart: true });
    f.event({ v: 1, type: "text_delta", agent: "main", text: "start" });
    expect(f.liveLines().map((l) => l.text)).toEqual(["Fresh start"]);
  });
});
