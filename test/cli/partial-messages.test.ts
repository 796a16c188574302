import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Harness, startHarness } from "./run-harness.js";

// `--include-partial-messages`: the text as the model streams it, as text_delta events, with
// the real ChatOpenAI reading the fake's server-sent events. Without the flag the stream and
// the model calls are what they were (no delta, no streamed request).

vi.setConfig({ testTimeout: 60_000 });

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const OPENAI = ["--model", "openai:delve-unpriced-model", "--approval", "yolo"];
const SCRIPT = () => [
  {
    text: "Asking a helper.",
    toolCalls: [
      { name: "task", args: { description: "say sub", subagent_type: "general-purpose" } },
    ],
  },
  { text: "The helper says hi." },
  { text: "All done, in pieces." },
];

describe("delve run --output stream-json --include-partial-messages", () => {
  it("prints each message's text in pieces (subagents' by name) before its one text event", async () => {
    const ws = h.workspace();
    h.openai.script(SCRIPT());
    const run = await h.delve(ws, [
      "run",
      "go",
      ...OPENAI,
      "--output",
      "stream-json",
      "--include-partial-messages",
    ]);
    expect(run.code).toBe(0);
    const events = run.events();
    // Each text event comes after the deltas of its message, which join to its text.
    let pieces: Record<string, string> = {};
    const seen: Array<[string, string]> = [];
    for (const e of events) {
      if (e.type === "text_delta") pieces[e.agent] = (pieces[e.agent] ?? "") + e.text;
      if (e.type === "text") {
        expect(pieces[e.agent]).toBe(e.text);
        seen.push([e.agent, e.text]);
        pieces = { ...pieces, [e.agent]: "" };
      }
    }
    expect(seen).toEqual([
      ["main", "Asking a helper."],
      ["general-purpose", "The helper says hi."],
      ["main", "All done, in pieces."],
    ]);
    expect(events.filter((e) => e.type === "text_delta").length).toBeGreaterThan(6);
    // Every model call streamed, asking for the usage chunk; the usage is what it would be.
    const bodies = h.openai.accepted().slice(-3);
    expect(bodies.map((b) => [b.stream, b.stream_options])).toEqual(
      bodies.map(() => [true, { include_usage: true }]),
    );
    const usage = events.filter((e) => e.type === "usage");
    expect(usage.map((u) => [u.agent, u.input, u.output])).toEqual([
      ["main", 10, 5],
      ["general-purpose", 10, 5],
      ["main", 10, 5],
    ]);
    expect(events.at(-1)).toMatchObject({
      type: "result",
      answer: "All done, in pieces.",
      usage: { input: 30, output: 15 },
    });
  });

  it("without the flag: no delta, the model not streamed, the same text events", async () => {
    const ws = h.workspace();
    h.openai.script(SCRIPT());
    const run = await h.delve(ws, ["run", "go", ...OPENAI, "--output", "stream-json"]);
    expect(run.code).toBe(0);
    const events = run.events();
    expect(events.some((e) => e.type === "text_delta")).toBe(false);
    expect(events.filter((e) => e.type === "text").map((e) => e.text)).toEqual([
      "Asking a helper.",
      "The helper says hi.",
      "All done, in pieces.",
    ]);
    expect(
      h.openai
        .accepted()
        .slice(-3)
        .map((b) => b.stream ?? false),
    ).toEqual([false, false, false]);
  });

  it("with ChatAnthropic: the deltas join to the text; the usage is LangChain's streamed sum", async () => {
    const ws = h.workspace();
    h.anthropic.script([{ text: "Claude streams too." }]);
    const run = await h.delve(ws, [
      "run",
      "go",
      "--model",
      "anthropic:delve-unpriced-model",
      "--output",
      "stream-json",
      "--include-partial-messages",
    ]);
    expect(run.code).toBe(0);
    const events = run.events();
    const deltas = events.filter((e) => e.type === "text_delta").map((e) => e.text);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe("Claude streams too.");
    expect(events.filter((e) => e.type === "text").map((e) => e.text)).toEqual([
      "Claude streams too.",
    ]);
    expect(h.anthropic.accepted().at(-1)?.stream).toBe(true);
    // The fake says 1 output token in message_start and 5 (cumulative) in message_delta;
    // @langchain/anthropic adds them (see test/wire/streaming.test.ts): 6, one high.
    const usage = events.find((e) => e.type === "usage");
    expect([usage.input, usage.output]).toEqual([10, 6]);
  });

  it("is refused without --output stream-json (exit 2)", async () => {
    const run = await h.delve(h.workspace(), [
      "run",
      "go",
      ...OPENAI,
      "--include-partial-messages",
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--include-partial-messages goes with --output stream-json");
  });
});
