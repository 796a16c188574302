import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { tool } from "@langchain/core/tools";
import { createDeepAgent, fail, ok } from "delve";
import {
  answerMatches,
  CassetteDriftError,
  calledTool,
  defineTaskSet,
  maxTokens,
  noFalseSuccess,
  runTaskSet,
} from "delve/evals";
import { ScriptedChatModel, type ScriptedStep } from "delve/testing";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "delve-evals-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const orders = (description = "Look up one order by id. Changes nothing.", status = "paid") => [
  tool(
    async ({ id }) =>
      id === "ORD-1" ? ok({ id, status }) : fail({ code: "NOT_FOUND", message: `No order ${id}.` }),
    {
      name: "get_order",
      description,
      schema: z.object({ id: z.string() }),
    },
  ),
];

const taskSet = (options: { description?: string; prompt?: string; status?: string } = {}) =>
  defineTaskSet({
    name: "orders",
    agent: (model) =>
      createDeepAgent({
        model,
        tools: orders(options.description, options.status),
        systemPrompt: options.prompt ?? "Be exact.",
      }),
    tasks: [
      {
        id: "paid",
        input: "Is ORD-1 paid?",
        expect: [calledTool("get_order", { id: "ORD-1" }), answerMatches(/paid/)],
      },
      {
        id: "missing",
        input: "Is ORD-9 paid?",
        expect: [calledTool("get_order", { id: "ORD-9" }), noFalseSuccess()],
      },
    ],
  });

const scripts: Record<string, ScriptedStep[]> = {
  paid: [
    {
      toolCalls: [{ name: "get_order", args: { id: "ORD-1" } }],
      usage: { input_tokens: 1000, output_tokens: 20 },
    },
    { text: "ORD-1 is paid.", usage: { input_tokens: 1100, output_tokens: 10 } },
  ],
  missing: [
    { toolCalls: [{ name: "get_order", args: { id: "ORD-9" } }] },
    "I could not find ORD-9.",
  ],
};
const scripted = (task: { id: string }) => new ScriptedChatModel(scripts[task.id] ?? []);

describe("runTaskSet", () => {
  it("reports per task, with the trajectory, tokens and cost from the usage data, and time", async () => {
    const report = await runTaskSet(taskSet(), {
      model: scripted,
      prices: { scripted: { input: 3, output: 15 } },
    });
    expect(report.summary).toMatchObject({
      tasks: 2,
      passed: 2,
      failed: 0,
      passRate: 1,
      modelCalls: 4,
    });
    const paid = report.tasks[0]!.runs[0]!;
    expect(paid.usage).toEqual({ input: 2100, output: 30, total: 2130 });
    // (1000*3 + 20*15 + 1100*3 + 10*15) / 1e6 USD
    expect(paid.cost).toBeCloseTo(0.00675, 8);
    expect(paid.trajectory.map((e) => e.kind)).toEqual(["model", "tool", "model"]);
    expect(paid.trajectory[1]).toMatchObject({
      kind: "tool",
      name: "get_order",
      args: { id: "ORD-1" },
      failed: false,
    });
    expect(report.tasks[1]!.runs[0]!.trajectory[1]).toMatchObject({
      failed: true,
      code: "NOT_FOUND",
    });
    expect(report.tasks[1]!.runs[0]!.cost).toBeUndefined();
    expect(paid.ms).toBeGreaterThanOrEqual(0);
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
    const set = taskSet();
    const budget = defineTaskSet({
      ...set,
      tasks: [{ ...set.tasks[0]!, expect: [maxTokens(2000)] }],
    });
    const over = await runTaskSet(budget, { model: scripted });
    expect(over.tasks[0]!.reason).toBe("budget maxTokens(2000) exceeded: 2130 tokens");
  });

  it("repeat: k runs per task and a pass rate; a failing run gives the task's reason", async () => {
    let runs = 0;
    const report = await runTaskSet(taskSet(), {
      only: ["paid"],
      repeat: 3,
      concurrency: 1,
      model: (task) =>
        ++runs === 2
          ? new ScriptedChatModel([
              { toolCalls: [{ name: "get_order", args: { id: "ORD-2" } }] },
              "ORD-2 is missing.",
            ])
          : scripted(task),
    });
    const paid = report.tasks[0]!;
    expect(paid.runs).toHaveLength(3);
    expect(paid.passRate).toBeCloseTo(2 / 3);
    expect(paid.pass).toBe(false);
    expect(paid.reason).toBe('get_order was called, but not with id "ORD-1": got id "ORD-2"');
  });

  it("records a cassette, then replays it offline with the same verdicts", async () => {
    const cassette = path.join(dir, "orders.json");
    const live = await runTaskSet(taskSet(), { model: scripted, record: cassette });
    const replayed = await runTaskSet(taskSet(), { replay: cassette });
    expect(replayed.mode).toBe("replay");
    expect(replayed.tasks.map((t) => [t.id, t.pass])).toEqual(
      live.tasks.map((t) => [t.id, t.pass]),
    );
    expect(replayed.tasks[0]!.runs[0]!.usage).toEqual(live.tasks[0]!.runs[0]!.usage);
  });

  it("a changed tool definition or prompt fails the replay naming the task and step", async () => {
    const cassette = path.join(dir, "drift.json");
    await runTaskSet(taskSet(), { model: scripted, record: cassette });
    const changed = await runTaskSet(taskSet({ description: "Look up an order." }), {
      replay: cassette,
    });
    expect(changed.summary.failed).toBe(2);
    expect(changed.tasks[0]!.reason).toBe(
      "task paid step 1 no longer matches its recorded request (the definition of tool get_order changed): re-record against a real model",
    );
    const prompt = await runTaskSet(taskSet({ prompt: "Be brief." }), { replay: cassette });
    expect(prompt.tasks[1]!.reason).toBe(
      "task missing step 1 no longer matches its recorded request (the system prompt changed): re-record against a real model",
    );
  });

  it("a changed input or tool result drifts at the step that first sees it", async () => {
    const cassette = path.join(dir, "result.json");
    await runTaskSet(taskSet(), { model: scripted, record: cassette });
    const refunded = await runTaskSet(taskSet({ status: "refunded" }), {
      replay: cassette,
      only: ["paid"],
    });
    expect(refunded.tasks[0]!.reason).toBe(
      "task paid step 2 no longer matches its recorded request (message 3 differs (an input, a tool result or an earlier answer changed)): re-record against a real model",
    );
    const set = taskSet();
    const other = defineTaskSet({
      ...set,
      tasks: set.tasks.map((t) =>
        t.id === "paid" ? { ...t, input: "Is ORD-1 paid, really?" } : t,
      ),
    });
    const report = await runTaskSet(other, { replay: cassette, only: ["paid"] });
    expect(report.tasks[0]!.reason).toBe(
      "task paid step 1 no longer matches its recorded request (message 1 differs (an input, a tool result or an earlier answer changed)): re-record against a real model",
    );
  });

  it("a task missing from the cassette says to record it", async () => {
    const cassette = path.join(dir, "partial.json");
    await runTaskSet(taskSet(), { model: scripted, record: cassette, only: ["paid"] });
    const report = await runTaskSet(taskSet(), { replay: cassette });
    expect(report.tasks[1]!.reason).toBe(
      `task missing has no recording in ${cassette}: record it against a real model`,
    );
    expect(
      CassetteDriftError.isInstance(
        new CassetteDriftError("NOT_RECORDED", "x", { task: "t", step: 1, change: "" }),
      ),
    ).toBe(true);
  });

  it("a judge grades answerMatches({ judge }), and its calls are recorded and replayed too", async () => {
    const set = defineTaskSet({
      name: "judged",
      agent: (model) => createDeepAgent({ model, tools: orders() }),
      tasks: [
        {
          id: "j",
          input: "Is ORD-1 paid?",
          expect: [answerMatches({ judge: "Says whether ORD-1 is paid." })],
        },
      ],
    });
    const cassette = path.join(dir, "judge.json");
    const judge = new ScriptedChatModel(["FAIL\nIt does not say."]);
    const live = await runTaskSet(set, {
      model: () => new ScriptedChatModel(["No idea."]),
      judge,
      record: cassette,
    });
    expect(live.tasks[0]!.reason).toBe(
      'the judge failed the answer on "Says whether ORD-1 is paid.": "FAIL\\nIt does not say."',
    );
    expect(judge.calls[0]!.messages.at(-1)!.text).toContain("Final answer:\nNo idea.");
    const replayed = await runTaskSet(set, { replay: cassette });
    expect(replayed.tasks[0]!.reason).toBe(live.tasks[0]!.reason);
  });

  it("an agent that crashes fails its task with the error, and the others still run", async () => {
    const set = defineTaskSet({
      ...taskSet(),
      agent: () => ({
        invoke: async () => {
          throw new Error("tool server down");
        },
      }),
    });
    const report = await runTaskSet(set, { model: scripted });
    expect(report.tasks.map((t) => t.reason)).toEqual(["tool server down", "tool server down"]);
  });

  it("refuses wrong options and task sets at once", async () => {
    await expect(
      runTaskSet(taskSet(), { record: "a", replay: "b", model: scripted }),
    ).rejects.toThrow("record or replay, not both");
    await expect(runTaskSet(taskSet(), {})).rejects.toThrow("needs a model");
    await expect(runTaskSet(taskSet(), { model: scripted, repeat: 0 })).rejects.toThrow(
      "repeat must be a whole number",
    );
    await expect(
      runTaskSet({ name: "x", agent: () => ({}) as any, tasks: [] }, { model: scripted }),
    ).rejects.toThrow("made by defineTaskSet");
    await expect(runTaskSet(taskSet(), { replay: path.join(dir, "none.json") })).rejects.toThrow(
      "Cannot read the cassette",
    );
    const base = { name: "s", agent: () => ({ invoke: async () => ({}) }) };
    expect(() => defineTaskSet({ ...base, tasks: [] })).toThrow("has no tasks");
    expect(() => defineTaskSet({ ...base, tasks: [{ id: "a", input: "x", expect: [] }] })).toThrow(
      "Task a has no expectations",
    );
    const dup = { id: "a", input: "x", expect: [noFalseSuccess()] };
    expect(() => defineTaskSet({ ...base, tasks: [dup, dup] })).toThrow("Two tasks have the id a.");
  });
});
