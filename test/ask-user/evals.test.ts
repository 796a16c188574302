import { MemorySaver } from "@langchain/langgraph";
import { ASK_USER_TOOL_NAME, createDeepAgent } from "delve";
import { answerMatches, defineTaskSet, renderHtmlReport, runTaskSet } from "delve/evals";
import { ScriptedChatModel } from "delve/testing";
import { describe, expect, it } from "vitest";

// An eval task scripts the user's answers to ask_user, as it scripts approvals.
const asking = () =>
  new ScriptedChatModel([
    { toolCalls: [{ name: ASK_USER_TOOL_NAME, args: { question: "Which city?" }, id: "q1" }] },
    {
      toolCalls: [
        {
          name: ASK_USER_TOOL_NAME,
          args: { question: "Which days?", choices: ["Mon", "Tue", "Wed"], multi_select: true },
          id: "q2",
        },
      ],
    },
    (messages) =>
      `Booked: ${messages
        .filter((m) => m.getType() === "tool")
        .map((m) => m.text)
        .join(" / ")}`,
  ]);

const setWith = (answers: any) =>
  defineTaskSet({
    name: "booking",
    agent: (model) => createDeepAgent({ model, askUser: true, checkpointer: new MemorySaver() }),
    tasks: [
      {
        id: "book",
        input: "Book a trip.",
        ...(answers === undefined ? {} : { answers }),
        expect: [answerMatches(/Oslo.*Mon, Wed/)],
      },
    ],
  });

describe("scripted answers in evals", () => {
  it("a list answers the questions in order, a list entry for a multi-select one", async () => {
    const report = await runTaskSet(setWith(["Oslo", ["Mon", "Wed"]]), { model: asking });
    expect(report.tasks[0]!.runs[0]!.answer).toBe(
      "Booked: The user answered: Oslo / The user chose: Mon, Wed",
    );
    expect(report.summary.passed).toBe(1);
  });

  it("a function answers from the question", async () => {
    const report = await runTaskSet(
      setWith((q: { question: string }) =>
        q.question === "Which city?" ? "Oslo" : { answer: ["Mon", "Wed"] },
      ),
      { model: asking },
    );
    expect(report.summary.passed).toBe(1);
  });

  it("a question the task does not script fails the run, naming the question", async () => {
    const report = await runTaskSet(setWith(undefined), { model: asking });
    expect(report.tasks[0]!.runs[0]!.error).toBe(
      'ask_user asked "Which city?", but the task scripts no answers',
    );
    const short = await runTaskSet(setWith(["Oslo"]), { model: asking });
    expect(short.tasks[0]!.runs[0]!.error).toBe(
      'ask_user asked "Which days?" after the 1 scripted answers',
    );
  });

  it("the trajectory records each question with its scripted answer after the turn that asked, and the HTML report shows them", async () => {
    const report = await runTaskSet(setWith(["Oslo", ["Mon", "Wed"]]), { model: asking });
    const trajectory = report.tasks[0]!.runs[0]!.trajectory;
    expect(trajectory.map((e) => (e.kind === "model" ? `model ${e.step}` : e.kind))).toEqual([
      "model 1",
      "question",
      "tool",
      "model 2",
      "question",
      "tool",
      "model 3",
    ]);
    expect(trajectory.filter((e) => e.kind === "question")).toEqual([
      {
        kind: "question",
        callId: "q1",
        question: "Which city?",
        multiSelect: false,
        answer: "Oslo",
      },
      {
        kind: "question",
        callId: "q2",
        question: "Which days?",
        choices: ["Mon", "Tue", "Wed"],
        multiSelect: true,
        answer: ["Mon", "Wed"],
      },
    ]);
    const html = renderHtmlReport(report);
    expect(html).toContain(
      '<li class="ev-question"><b>ask_user</b> Which city?<div>answered: <code>Oslo</code></div></li>',
    );
    expect(html).toContain("choices: Mon | Tue | Wed (several)");
    expect(html).toContain("answered: <code>Mon, Wed</code>");
  });
});
