import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Harness, startHarness } from "../cli/run-harness.js";
import { until } from "../interactive/tmux.js";

// The event stream of `delve run --output stream-json --include-partial-messages` when two
// subagents of one name run in parallel (their deltas interleave: the fake holds both
// mid-answer), and when a model call breaks off mid-answer and is retried.

vi.setConfig({ testTimeout: 60_000 });

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const RUN = ["--model", "openai:delve-unpriced-model", "--approval", "yolo"];
const JSON_OUT = ["--output", "stream-json", "--include-partial-messages"];

describe("subagent events name their task call", () => {
  it("two parallel runs of general-purpose: each event carries its own task call id", async () => {
    const ws = h.workspace();
    h.openai.script([
      {
        toolCalls: [
          { name: "task", args: { description: "alpha", subagent_type: "general-purpose" } },
          { name: "task", args: { description: "beta", subagent_type: "general-purpose" } },
        ],
      },
      { text: "Red fox runs far away.", holdAfter: 2 },
      { text: "Blue whale swims deep down.", holdAfter: 2 },
      { text: "Both answered." },
    ]);
    const running = h.delve(ws, ["run", "go", ...RUN, ...JSON_OUT]);
    // Both subagents mid-answer at once: their pieces so far have interleaved.
    await until(() => h.openai.holding() === 2, "the fake holds both subagents");
    h.openai.release();
    const run = await running;
    expect(run.code).toBe(0);
    const events = run.events();
    const calls = events.filter((e) => e.type === "tool_call" && e.tool === "task");
    const ids = calls.map((c) => c.call_id);
    expect(ids).toHaveLength(2);
    const sub = events.filter((e) => e.agent === "general-purpose");
    expect(new Set(sub.map((e) => e.task))).toEqual(new Set(ids));
    // Per task call, the deltas join to that run's one text, and it used one model call.
    const texts: Record<string, string> = {};
    const pieces: Record<string, string> = {};
    for (const e of sub) {
      if (e.type === "text_delta") pieces[e.task] = (pieces[e.task] ?? "") + e.text;
      if (e.type === "text") texts[e.task] = e.text;
    }
    expect(pieces).toEqual(texts);
    expect(Object.values(texts).sort()).toEqual([
      "Blue whale swims deep down.",
      "Red fox runs far away.",
    ]);
    for (const id of ids)
      expect(sub.filter((e) => e.type === "usage" && e.task === id)).toHaveLength(1);
    // The task results answer the calls whose runs wrote them.
    for (const r of events.filter((e) => e.type === "tool_result" && e.tool === "task"))
      expect(r.output).toBe(texts[r.call_id]);
    expect(events.filter((e) => e.agent === "main").every((e) => e.task === undefined)).toBe(true);
  });

  it("a call retried after it broke off mid-answer: a restart delta, then the retry's pieces", async () => {
    const ws = h.workspace();
    h.openai.script([
      { text: "Broken answer that never ends.", dropAfter: 2 },
      { text: "Fresh answer after the retry." },
    ]);
    const run = await h.delve(ws, ["run", "go", ...RUN, ...JSON_OUT]);
    expect(run.code).toBe(0);
    const deltas = run.events().filter((e) => e.type === "text_delta");
    const restart = deltas.findIndex((d) => d.restart === true);
    expect(
      deltas
        .slice(0, restart)
        .map((d) => d.text)
        .join(""),
    ).toBe("Broken answer ");
    expect(
      deltas
        .slice(restart)
        .map((d) => d.text)
        .join(""),
    ).toBe("Fresh answer after the retry.");
    expect(
      run
        .events()
        .filter((e) => e.type === "text")
        .map((e) => e.text),
    ).toEqual(["Fresh answer after the retry."]);
  });
});
