/**
 * Bad input from a hostile model: each case must come back as an error tool result (or be
 * handled in full), never crash the run and never be skipped silently. Deeply nested
 * arguments, NUL bytes and oversized commands to `execute`, grep over files above the size
 * limit, and a turn with hundreds of parallel calls.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type BaseMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { createDeepAgent, FilesystemBackend, LocalShellBackend, SandboxBackend } from "delve";
import { ScriptedChatModel } from "delve/testing";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "delve-bad-input-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const freshDir = () => fs.mkdtempSync(`${tmp}/d-`);

const user = (content: string) => ({ messages: [{ role: "user" as const, content }] });
const results = (messages: BaseMessage[]) =>
  messages.filter((m) => ToolMessage.isInstance(m)) as ToolMessage[];
const nested = (depth: number) => {
  let value: Record<string, unknown> = { leaf: 1 };
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

describe("deeply nested tool arguments are an error result, not a RangeError", () => {
  for (const depth of [5_000, 20_000]) {
    it(`depth ${depth}: the tool does not run, the model gets an error and the run goes on`, async () => {
      let ran = 0;
      const take = tool(
        async () => {
          ran++;
          return "taken";
        },
        { name: "take", description: "Take.", schema: z.object({}).passthrough() },
      );
      const model = new ScriptedChatModel([
        { toolCalls: [{ name: "take", args: nested(depth), id: "deep" }] },
        "done",
      ]);
      const out = await createDeepAgent({ model, tools: [take] }).invoke(user("go"));
      expect(ran).toBe(0);
      const [result] = results(out.messages);
      expect(result!.status).toBe("error");
      expect(result!.text).toMatch(/nested deeper than 100 levels/);
      expect(out.messages.at(-1)!.text).toBe("done");
    });
  }

  it("a deep call next to a normal one: only the deep one is refused", async () => {
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          { name: "write_file", args: { file_path: "/a.md", content: nested(6_000) }, id: "w1" },
          { name: "write_file", args: { file_path: "/b.md", content: "fine" }, id: "w2" },
        ],
      },
      "done",
    ]);
    const out = await createDeepAgent({ model }).invoke(user("go"));
    const byId = new Map(results(out.messages).map((m) => [m.tool_call_id, m]));
    expect(byId.get("w1")!.status).toBe("error");
    expect(out.files["/b.md"].content).toBe("fine");
    expect(out.files["/a.md"]).toBeUndefined();
  });

  it("arguments 90 levels deep still reach the tool", async () => {
    let seen: unknown;
    const take = tool(
      async (args) => {
        seen = args;
        return "taken";
      },
      { name: "take", description: "Take.", schema: z.object({}).passthrough() },
    );
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "take", args: nested(90), id: "ok" }] },
      "done",
    ]);
    await createDeepAgent({ model, tools: [take] }).invoke(user("go"));
    expect(JSON.stringify(seen)).toContain('"leaf":1');
  });
});

describe("execute refuses commands no shell can take, with a clear error", () => {
  const cases: [string, string, RegExp][] = [
    ["a NUL byte", "touch /tmp/ignored; echo a\0b > ran.txt", /NUL byte/],
    ["a 300 KB command", `echo ${"x".repeat(300_000)} > ran.txt`, /301 KB, over the 100 KB limit/],
    ["a 120 KB command (over the 100 KB limit)", `: ${"y".repeat(120_000)} > ran.txt`, /limit/],
  ];
  const backends = {
    LocalShellBackend: (root: string) => new LocalShellBackend({ rootDir: root }),
    SandboxBackend: (root: string) => new SandboxBackend({ rootDir: root }),
  };
  for (const [backendName, make] of Object.entries(backends)) {
    for (const [name, command, message] of cases) {
      it(`${backendName}, ${name}: an error result, nothing runs`, async () => {
        const root = freshDir();
        const model = new ScriptedChatModel([
          { toolCalls: [{ name: "execute", args: { command }, id: "x" }] },
          "done",
        ]);
        const out = await createDeepAgent({ model, backend: make(root) }).invoke(user("go"));
        const [result] = results(out.messages);
        expect(result!.status).toBe("error");
        expect(result!.text).toMatch(message);
        expect(result!.text.length).toBeLessThan(300);
        expect(fs.existsSync(path.join(root, "ran.txt"))).toBe(false);
      });
    }
  }

  it("LocalShellBackend.execute itself answers an error result instead of throwing", async () => {
    const root = freshDir();
    const shell = new LocalShellBackend({ rootDir: root });
    const nul = await shell.execute("echo a\0b > ran.txt");
    expect(nul.error).toMatchObject({
      code: "unsupported",
      message: expect.stringMatching(/NUL byte/),
    });
    const big = await shell.execute(`echo ${"x".repeat(300_000)} > ran.txt`);
    expect(big.error?.code).toBe("too_large");
    expect(fs.existsSync(path.join(root, "ran.txt"))).toBe(false);
    expect((await shell.execute(`printf '%s' ${"x".repeat(99_000)} | wc -c`)).output).toContain(
      "99000",
    );
  });

  it("SandboxBackend.execute itself answers an error result instead of throwing", async () => {
    const sandbox = new SandboxBackend({ rootDir: freshDir() });
    expect((await sandbox.execute("echo a\0b")).error?.message).toMatch(/NUL byte/);
    expect((await sandbox.execute(`echo ${"x".repeat(300_000)}`)).error?.code).toBe("too_large");
    expect((await sandbox.execute(`printf '%s' ${"x".repeat(99_000)} | wc -c`)).output).toContain(
      "99000",
    );
  });
});

describe("grep searches files above the size limit (none is skipped silently)", () => {
  const big = (needleAt: number, lines = 40_000) =>
    `${Array.from({ length: lines }, (_, i) => `line ${i + 1} ${i + 1 === needleAt ? "NEEDLE" : "hay"}`).join("\n")}\n`;

  for (const [name, make] of [
    [
      "FilesystemBackend",
      (root: string) => new FilesystemBackend({ rootDir: root, maxFileSizeMb: 0.1 }),
    ],
    [
      "LocalShellBackend",
      (root: string) => new LocalShellBackend({ rootDir: root, maxFileSizeMb: 0.1 }),
    ],
  ] as const) {
    it(`${name}: a match at line 39,999 of a file 5x the limit is found, with its line number`, async () => {
      const root = freshDir();
      fs.writeFileSync(path.join(root, "big.log"), big(39_999));
      fs.writeFileSync(path.join(root, "small.log"), "NEEDLE here\n");
      const backend = make(root);
      expect(fs.statSync(path.join(root, "big.log")).size).toBeGreaterThan(5 * 0.1 * 1024 * 1024);
      expect((await backend.grep("NEEDLE")).matches).toEqual([
        { path: "/big.log", line: 39_999, text: "line 39999 NEEDLE" },
        { path: "/small.log", line: 1, text: "NEEDLE here" },
      ]);
      expect((await backend.grep("NEEDLE", { path: "/big.log" })).matches).toHaveLength(1);
      // Line numbers stay right across chunks, and the cap still applies.
      const capped = await backend.grep("hay", { path: "/big.log", maxCount: 3 });
      expect(capped.matches!.map((m) => m.line)).toEqual([1, 2, 3]);
      expect(capped.truncated).toBe(true);
    });
  }

  it("FilesystemBackend through the grep tool: the model is told about the match", async () => {
    const root = freshDir();
    fs.writeFileSync(path.join(root, "big.log"), big(30_000));
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "grep", args: { pattern: "NEEDLE", output_mode: "content" } }] },
      "done",
    ]);
    const backend = new FilesystemBackend({ rootDir: root, maxFileSizeMb: 0.1 });
    const out = await createDeepAgent({ model, backend }).invoke(user("go"));
    expect(results(out.messages)[0]!.text).toContain("30000");
  });

  it("SandboxBackend: an 11 MB file is searched to its end", async () => {
    const root = freshDir();
    fs.writeFileSync(path.join(root, "big.log"), big(700_000, 700_000));
    expect(fs.statSync(path.join(root, "big.log")).size).toBeGreaterThan(10 * 1024 * 1024);
    const sandbox = new SandboxBackend({ rootDir: root });
    expect((await sandbox.grep("NEEDLE")).matches).toEqual([
      { path: "/big.log", line: 700_000, text: "line 700000 NEEDLE" },
    ]);
  });
});

describe("hundreds of parallel tool calls in one turn", () => {
  it("300 calls all get their result, and no more than 64 run at once", async () => {
    let running = 0;
    let peak = 0;
    const slow = tool(
      async ({ i }: { i: number }) => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 2));
        running--;
        return `ok ${i}`;
      },
      { name: "slow", description: "Slow.", schema: z.object({ i: z.number() }) },
    );
    const calls = Array.from({ length: 300 }, (_, i) => ({
      name: "slow",
      args: { i },
      id: `c${i}`,
    }));
    const model = new ScriptedChatModel([{ toolCalls: calls }, "done"]);
    const out = await createDeepAgent({ model, tools: [slow], summarization: false }).invoke(
      user("go"),
    );
    const texts = results(out.messages).map((m) => m.text);
    expect(new Set(texts)).toEqual(new Set(calls.map((_, i) => `ok ${i}`)));
    expect(peak).toBeGreaterThan(1);
    expect(peak).toBeLessThanOrEqual(64);
  });
});
