import { describe, expect, it } from "vitest";
import { diffLines, foldedResult, shortArgs, usd } from "../../src/interactive/lines.js";
import { answerOf } from "../../src/interactive/question-view.js";
import {
  complete,
  completions,
  findCommand,
  parseSlash,
} from "../../src/interactive/slash-commands.js";

// The interactive session's pure pieces, without a terminal: what the pty tests rely on.

describe("slash commands", () => {
  it("Tab completes a unique prefix to the name (a space after one that takes an argument)", () => {
    expect(complete("/cos")).toBe("/cost");
    expect(complete("/mo")).toBe("/model ");
    expect(complete("/c")).toBe("/c"); // clear, compact, cost, context: nothing shared further
    expect(complete("/co")).toBe("/co"); // compact, cost, context
    expect(complete("/zz")).toBe("/zz");
    expect(completions("/").length).toBeGreaterThan(10);
    expect(completions("/cost now")).toEqual([]);
  });

  it("reads a command line and suggests the nearest name for a typo", () => {
    expect(parseSlash("/model  openai:gpt-4.1 ")).toEqual({ name: "model", arg: "openai:gpt-4.1" });
    expect(parseSlash("fix it")).toBeUndefined();
    expect(findCommand("rewnd")).toEqual({ near: "rewind" });
  });
});

describe("transcript lines", () => {
  it("a tool call in a few words: the main argument, a task's subagent and description", () => {
    expect(shortArgs("write_file", { file_path: "/a.txt", content: "x\ny" })).toBe("/a.txt");
    expect(shortArgs("execute", { command: "ls\n-la" })).toBe("ls ⏎ -la");
    expect(shortArgs("task", { subagent_type: "researcher", description: "look" })).toBe(
      "researcher: look",
    );
    expect(shortArgs("custom", { n: 1 })).toBe('{"n":1}');
  });

  it("a result folds to three lines and says how many hide behind ctrl+o", () => {
    const { lines, folded } = foldedResult("1\n2\n3\n4\n5\n", "dim", 0);
    expect(folded).toBe(2);
    expect(lines.map((l) => l.text)).toEqual([
      "⎿ 1",
      "  2",
      "  3",
      "  … +2 lines (ctrl+o shows all)",
    ]);
  });

  it("a diff drops its file headers and tones + and - lines", () => {
    const lines = diffLines(
      "Index: a\n===================\n--- a\n+++ a\n@@ -1 +1 @@\n-one\n+two\n",
    );
    expect(lines.map((l) => [l.text, l.tone])).toEqual([
      ["@@ -1 +1 @@", "hunk"],
      ["-one", "del"],
      ["+two", "add"],
    ]);
  });

  it("costs: unknown, tiny, cents", () => {
    expect(usd(null)).toBe("cost ?");
    expect(usd(0.00001)).toBe("<$0.0001");
    expect(usd(0.0123)).toBe("$0.0123");
  });
});

describe("answers to ask_user", () => {
  const q = { call_id: "q", question: "Which?", choices: ["dry", "warm", "cold"] };
  it("a number picks a choice; several only when the question allows it; else free text", () => {
    expect(answerOf("2", q)).toEqual({ type: "answer", choices: ["warm"] });
    expect(answerOf("1,3", q)).toEqual({ type: "answer", text: "1,3" });
    expect(answerOf("1, 3", { ...q, multiple: true })).toEqual({
      type: "answer",
      choices: ["dry", "cold"],
    });
    expect(answerOf("9", q)).toEqual({ type: "answer", text: "9" });
    expect(answerOf("teal please", q)).toEqual({ type: "answer", text: "teal please" });
  });
});
