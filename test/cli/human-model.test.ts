import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ROOT } from "./delve-bin.js";
import { type Harness, startHarness } from "./run-harness.js";

// `delve run --model human --human-io DIR` with another child process playing the model
// through the directory: no provider, no key.

vi.setConfig({ testTimeout: 120_000 });

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

function player(dir: string, steps: unknown[]) {
  const child = spawn(
    process.execPath,
    [
      "--import",
      import.meta.resolve("tsx"),
      path.join(ROOT, "test/cli/fixtures/human-player.ts"),
      dir,
      JSON.stringify(steps),
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  let err = "";
  child.stdout.on("data", (d) => {
    out += d;
  });
  child.stderr.on("data", (d) => {
    err += d;
  });
  return new Promise<any[]>((resolve, reject) =>
    child.on("close", (code) =>
      code === 0
        ? resolve(
            out
              .trim()
              .split("\n")
              .map((l) => JSON.parse(l)),
          )
        : reject(new Error(`player exited ${code}: ${err}`)),
    ),
  );
}

describe("delve run --model human --human-io DIR", () => {
  it("a program plays the model: exact requests out, replies in, a bad reply refused without breaking the run", async () => {
    const ws = h.workspace();
    const io = path.join(ws, "play");
    const played = player(io, [
      { n: 1, raw: '{"tool_calls":[{"name":"write_files","args":{}}]}' },
      {
        n: 1,
        reply: {
          text: "Writing it.",
          tool_calls: [
            { name: "write_file", args: { file_path: "/hello.txt", content: "hi\n" }, id: "w1" },
          ],
        },
      },
      { n: 2, reply: { text: "Done: hello.txt says hi." } },
    ]);
    const run = await h.delve(ws, [
      "run",
      "make hello",
      "--model",
      "human",
      "--human-io",
      "play",
      "--approval",
      "yolo",
      "--output",
      "stream-json",
    ]);
    const log = await played;
    expect(run.stderr).not.toMatch(/delve run:/);
    expect(run.code).toBe(0);
    const events = run.events();
    expect(events[0]).toMatchObject({ type: "thread", model: "human" });
    expect(events.at(-1)).toMatchObject({
      type: "result",
      status: "completed",
      answer: "Done: hello.txt says hi.",
    });
    expect(fs.readFileSync(path.join(ws, "hello.txt"), "utf8")).toBe("hi\n");

    const [first, refused, , second] = log;
    expect(first.request.system).toMatch(/^You are a coding agent working in the user's workspace/);
    expect(first.request.messages).toEqual([{ role: "user", content: "make hello" }]);
    expect(first.request.tools.map((t: any) => t.name)).toEqual(
      expect.arrayContaining(["write_file", "read_file", "execute"]),
    );
    expect(refused.error.error).toMatch(
      /^tool_calls\[0\]\.name "write_files" is not a tool of this request; the tools are: .*write_file/,
    );
    expect(second.request.messages.slice(1)).toEqual([
      {
        role: "assistant",
        content: "Writing it.",
        tool_calls: [
          { id: "w1", name: "write_file", args: { file_path: "/hello.txt", content: "hi\n" } },
        ],
      },
      {
        role: "tool",
        content: expect.stringContaining("hello.txt"),
        tool_call_id: "w1",
        name: "write_file",
      },
    ]);
    // The thread keeps --model human and the directory: -c goes on at request 3.
    const resumed = player(io, [{ n: 3, reply: { text: "Still here." } }]);
    const again = await h.delve(ws, ["run", "-c", "anything else?"]);
    await resumed;
    expect(again.code).toBe(0);
    expect(again.stdout).toBe("Still here.\n");
  });

  it("without --human-io the request is printed on stderr and the reply read from stdin", async () => {
    const ws = h.workspace();
    const run = await h.delve(ws, ["run", "say hi", "--model", "human"], {
      input: '{"tool_calls": [{"name": "nope", "args": {}}]}\nHello from a person.\n',
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Hello from a person.\n");
    expect(run.stderr).toContain("--- model call 1: the request ---");
    expect(run.stderr).toContain('"content": "say hi"');
    expect(run.stderr).toContain('error: tool_calls[0].name "nope" is not a tool of this request');
  });

  it("--human-io without --model human is a usage error", async () => {
    const ws = h.workspace();
    const run = await h.delve(ws, ["run", "x", "--model", "openai:gpt-5.5", "--human-io", "play"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--human-io goes with --model human");
  });
});
