import { compareReports, type EvalReport, type RunReport, type TaskReport } from "delve/evals";
import { describe, expect, it } from "vitest";

const run = (pass: boolean, modelCalls: number, tokens = 100): RunReport => ({
  run: 0,
  pass,
  reasons: pass ? [] : ["update_ticket was never called (calls: none)"],
  expectations: [],
  trajectory: [],
  answer: "",
  usage: { input: tokens, output: 0, total: tokens },
  modelCalls,
  toolErrors: 0,
  ms: 5,
});
const task = (id: string, runs: RunReport[]): TaskReport => {
  const passed = runs.filter((r) => r.pass).length;
  const reason = runs.find((r) => !r.pass)?.reasons[0];
  return {
    id,
    pass: passed === runs.length,
    passRate: passed / runs.length,
    ...(reason ? { reason } : {}),
    runs,
  };
};
const report = (tasks: TaskReport[]): EvalReport => ({
  format: "delve-eval-report",
  version: 1,
  taskSet: "desk",
  mode: "replay",
  repeat: 1,
  startedAt: "2026-01-01T00:00:00Z",
  ms: 1,
  summary: {
    tasks: tasks.length,
    passed: 0,
    failed: 0,
    passRate: tasks.filter((t) => t.pass).length / tasks.length,
    modelCalls: 0,
    usage: { input: 0, output: 0, total: 0 },
  },
  tasks,
});

describe("compareReports", () => {
  it("names the tasks that flipped, the budgets that moved, and added or removed tasks", () => {
    const before = report([
      task("a", [run(true, 2)]),
      task("b", [run(false, 4)]),
      task("gone", [run(true, 1)]),
    ]);
    const after = report([
      task("a", [run(false, 3, 150)]),
      task("b", [run(true, 4)]),
      task("new", [run(true, 1)]),
    ]);
    const diff = compareReports(before, after);
    expect(diff.regressed).toEqual([
      { id: "a", from: "pass", to: "fail", reason: "update_ticket was never called (calls: none)" },
    ]);
    expect(diff.fixed).toEqual([{ id: "b", from: "fail", to: "pass" }]);
    expect(diff.moved).toEqual([
      { id: "a", metric: "passRate", before: 1, after: 0 },
      { id: "a", metric: "modelCalls", before: 2, after: 3 },
      { id: "a", metric: "tokens", before: 100, after: 150 },
      { id: "b", metric: "passRate", before: 0, after: 1 },
    ]);
    expect(diff.added).toEqual(["new"]);
    expect(diff.removed).toEqual(["gone"]);
  });
  it("with repeats, a moved pass rate shows though the task fails in both", () => {
    const before = report([task("a", [run(true, 2), run(false, 2), run(false, 2)])]);
    const after = report([task("a", [run(true, 2), run(true, 2), run(false, 2)])]);
    const diff = compareReports(before, after);
    expect(diff.flipped).toEqual([]);
    expect(diff.moved).toEqual([{ id: "a", metric: "passRate", before: 1 / 3, after: 2 / 3 }]);
  });
});
