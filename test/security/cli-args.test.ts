import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parseCommand, UsageError } from "../../src/cli/args.js";
import { COMMANDS } from "../../src/cli/commands.js";
import { parseEditArgs } from "../../src/cli/edit-args.js";
import { type Harness, startHarness } from "../cli/run-harness.js";

// Hostile arguments to `delve`: each is a usage error naming the flag (exit 2), never a crash,
// a stack trace, a polluted prototype, a file outside the workspace or a query on other rows.

vi.setConfig({ testTimeout: 120_000 });

const run = COMMANDS.find((c) => c.name === "run")!;
const approve = COMMANDS.find((c) => c.name === "approve")!;

const usageMessage = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error("expected a UsageError");
};

describe("hostile arguments, parsed", () => {
  it("a 1 MB task parses whole, fast; a 1 MB unknown flag gets a short message", () => {
    // (execve caps one argument at 128 KiB, so a 1 MB one only arrives in-process or on stdin.)
    const huge = "x".repeat(1024 * 1024);
    const started = performance.now();
    expect(parseCommand(run, [huge]).positionals[0]).toHaveLength(huge.length);
    const message = usageMessage(() => parseCommand(run, [`--${huge}`]));
    expect(performance.now() - started).toBeLessThan(2000);
    expect(message.length).toBeLessThan(300);
    expect(message).toContain("unknown flag --xxx");
    expect(usageMessage(() => parseCommand(run, ["--max-turns", huge])).length).toBeLessThan(200);
  });

  it.each([
    ["NUL", "a\u0000b"],
    ["ESC (a terminal escape)", "\u001b]0;pwned\u0007"],
    ["backspace", "ok\bno"],
    ["DEL", "x\u007f"],
  ])("a %s in a flag value is refused, naming the flag", (_, value) => {
    expect(usageMessage(() => parseCommand(run, ["--cwd", value]))).toMatch(
      /^--cwd contains a control character/,
    );
    expect(usageMessage(() => parseCommand(run, [`--model=${value}`]))).toMatch(/^--model/);
    expect(usageMessage(() => parseCommand(run, [value]))).toContain("control character");
  });

  it("tabs and newlines stay allowed in a task and a --reason", () => {
    expect(parseCommand(run, ["fix\tthe\ntest"]).positionals[0]).toBe("fix\tthe\ntest");
    expect(parseCommand(approve, ["t", "--reject", "--reason", "no\nthanks"]).values.reason).toBe(
      "no\nthanks",
    );
  });

  it.each(["__proto__", "constructor", "toString", "hasOwnProperty"])(
    "--%s is an unknown flag and pollutes nothing",
    (name) => {
      expect(usageMessage(() => parseCommand(run, [`--${name}`, "x"]))).toContain(
        `unknown flag --${name}`,
      );
      expect(usageMessage(() => parseCommand(run, [`--${name}=x`]))).toContain("did you mean");
      expect(({} as Record<string, unknown>).x).toBeUndefined();
    },
  );

  it("--edit refuses prototype keys at any depth", () => {
    for (const text of [
      '{"__proto__": {"polluted": true}}',
      '{"command": "ls", "opts": {"constructor": {"prototype": {"polluted": true}}}}',
      '{"a": [{"prototype": 1}]}',
    ]) {
      expect(usageMessage(() => parseEditArgs(text))).toMatch(
        /^--edit: the key "\w+" is not allowed/,
      );
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("--edit refuses a deep nesting without overflowing, and a non-object", () => {
    const deep = `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`;
    expect(usageMessage(() => parseEditArgs(deep))).toContain("nest deeper than 32");
    const deepArray = `{"a":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    expect(usageMessage(() => parseEditArgs(deepArray))).toContain("nest deeper than 32");
    expect(usageMessage(() => parseEditArgs("[]"))).toContain("a JSON object");
  });

  it("--edit takes a large flat object (a big file's content) whole", () => {
    const content = "y".repeat(1024 * 1024);
    expect(parseEditArgs(JSON.stringify({ file_path: "/a", content })).content).toBe(content);
  });
});

describe("hostile arguments, through the real CLI", () => {
  let h: Harness;
  let ws: string;
  let threadId: string;
  beforeAll(async () => {
    h = await startHarness();
    ws = h.workspace();
    h.openai.script([{ text: "done" }]);
    const first = await h.delve(ws, [
      "run",
      "hello",
      "--model",
      "openai:delve-unpriced-model",
      "--output",
      "json",
    ]);
    expect(first.code, first.stderr).toBe(0);
    threadId = JSON.parse(first.stdout).thread_id;
  });
  afterAll(() => h?.close());

  const noStack = (stderr: string) => {
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(stderr).not.toContain("node:internal");
  };

  it("a thread id with path separators or SQL quotes is exit 2 for show, delete and approve; the thread stays", async () => {
    for (const args of [
      ["threads", "show", "../../etc/passwd"],
      ["threads", "delete", "x' OR '1'='1"],
      ["threads", "delete", "%"],
      ["approve", "'; DROP TABLE threads; --"],
      ["approve", "..\\..\\x"],
    ]) {
      const out = await h.delve(ws, args);
      expect(out.code, `${args.join(" ")}: ${out.stderr}`).toBe(2);
      expect(out.stderr).toContain(`no thread ${args[args.length - 1]} in this workspace`);
      noStack(out.stderr);
    }
    const list = await h.delve(ws, ["threads", "list", "--json"]);
    expect(JSON.parse(list.stdout).map((t: { id: string }) => t.id)).toEqual([threadId]);
    expect(fs.readdirSync(path.join(ws, ".delve"))).toContain("threads.db");
  });

  it("an ESC in --cwd is exit 2 naming the flag", async () => {
    const out = await h.delve(ws, ["threads", "list", "--cwd", `${ws}\u001b[2J`]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("--cwd contains a control character");
    noStack(out.stderr);
  });

  it("--edit with a prototype key or a deep nesting is exit 2 before the thread is touched", async () => {
    for (const edit of ['{"__proto__":{"x":1}}', `${"[".repeat(5000)}${"]".repeat(5000)}`]) {
      const out = await h.delve(ws, ["approve", threadId, "--edit", edit]);
      expect(out.code, out.stderr).toBe(2);
      expect(out.stderr).toMatch(/delve approve: --edit/);
      noStack(out.stderr);
    }
  });
});
