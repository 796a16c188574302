import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { type AIMessage, type BaseMessage, HumanMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph";
import { type PendingQuestion, pendingQuestions } from "../ask-user/pending.js";
import type { CassetteReplay, CassetteStep } from "./cassette.js";
import { EvalChatModel, type ModelSession } from "./eval-model.js";
import { toolMutates } from "./mutation.js";
import type { RunReport } from "./report.js";
import {
  type ApprovalMark,
  buildTrajectory,
  modelTurns,
  type PriceTable,
  toolResults,
  totalUsage,
} from "./trajectory.js";
import type { AnswerPolicy, ApprovalPolicy, EvalTask, TaskOutcome, TaskSet } from "./types.js";

/** What one run needs from the runner. */
export interface RunTaskDeps {
  inner?: BaseChatModel;
  judge?: BaseChatModel;
  modelKey?: string;
  replay?: CassetteReplay;
  record?: CassetteStep[];
  prices?: PriceTable;
}

// A bounded number of approval rounds: a run that keeps asking is reported, not looped on.
const MAX_APPROVAL_ROUNDS = 25;

/** Runs one task once and checks its expectations. Never throws: errors fail the run. */
export async function runTask(
  set: TaskSet,
  task: EvalTask,
  run: number,
  deps: RunTaskDeps,
): Promise<RunReport> {
  const started = Date.now();
  const session: ModelSession = {
    calls: [],
    tools: new Map(),
    ...(deps.replay ? { replay: deps.replay } : {}),
    ...(deps.record ? { record: deps.record } : {}),
  };
  const workdir = mkdtempSync(join(tmpdir(), `delve-eval-${task.id}-`));
  const context = {
    task,
    run,
    workdir,
    ...(deps.modelKey ? { modelKey: deps.modelKey } : {}),
  };
  const approvals: ApprovalMark[] = [];
  let messages: BaseMessage[] = [];
  let files: Record<string, string> = { ...(task.files ?? {}) };
  let error: string | undefined;
  try {
    const agent = await set.agent(new EvalChatModel(session, deps.inner), context);
    const config = {
      configurable: { thread_id: `delve-eval-${task.id}-${run}-${started}` },
      ...(task.context !== undefined ? { context: task.context } : {}),
    };
    let out = await agent.invoke(
      { messages: inputMessages(task), ...(task.files ? { files: { ...task.files } } : {}) },
      config,
    );
    let asked = 0;
    for (let round = 0; out?.__interrupt__?.length; round++) {
      if (round >= MAX_APPROVAL_ROUNDS)
        throw new Error(`still asking for approval after ${round} rounds`);
      const questions = pendingQuestions(out);
      if (questions.length) {
        const answers = await answerAll(task.answers, questions, asked);
        asked += questions.length;
        questions.forEach((q, i) => {
          approvals.push(questionMark(session, q, answers[i]!.answer));
        });
        const resume =
          answers.length === 1
            ? answers[0]
            : Object.fromEntries(questions.map((q, i) => [q.interruptId, answers[i]]));
        out = await agent.invoke(new Command({ resume }), config);
        continue;
      }
      const request = out.__interrupt__[0].value;
      const decisions = await decide(task.approvals ?? "approve", request);
      approvals.push(approvalMark(session, request, decisions));
      out = await agent.invoke(new Command({ resume: { decisions } }), config);
    }
    messages = out?.messages ?? [];
    files = filesOf(out?.files) ?? files;
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  } finally {
    try {
      await set.cleanup?.(context);
    } finally {
      rmSync(workdir, { recursive: true, force: true });
    }
  }
  const trajectory = buildTrajectory(
    session.calls,
    messages,
    approvals,
    deps.prices,
    deps.modelKey,
  );
  const turns = modelTurns(trajectory);
  const outcome: TaskOutcome = {
    input: inputText(task),
    trajectory,
    answer: turns.at(-1)?.text ?? "",
    files,
    seedFiles: { ...(task.files ?? {}) },
    mutates: Object.fromEntries([...session.tools.values()].map((t) => [t.name, toolMutates(t)])),
  };
  const expectations = [];
  if (error === undefined) {
    const judge = deps.judge || deps.replay ? new EvalChatModel(session, deps.judge) : undefined;
    for (const expectation of task.expect) {
      try {
        const verdict = await expectation.check(outcome, judge ? { judge } : {});
        expectations.push({ label: expectation.label, ...verdict });
      } catch (e) {
        const reason = `${expectation.label} could not check: ${(e as Error).message}`;
        expectations.push({ label: expectation.label, pass: false, reason });
      }
    }
  }
  const reasons =
    error !== undefined
      ? [error]
      : expectations.flatMap((e) => (e.pass ? [] : [e.reason ?? e.label]));
  const costs = turns.map((t) => t.cost);
  return {
    run,
    pass: reasons.length === 0,
    reasons,
    expectations,
    ...(error !== undefined ? { error } : {}),
    trajectory,
    answer: outcome.answer,
    usage: totalUsage(trajectory),
    ...(costs.length > 0 && costs.every((c) => c !== undefined)
      ? { cost: costs.reduce((a, b) => (a as number) + (b as number), 0) }
      : {}),
    modelCalls: turns.length,
    toolErrors: toolResults(trajectory).filter((r) => r.failed).length,
    ms: Date.now() - started,
  };
}

function inputMessages(task: EvalTask): unknown[] {
  return typeof task.input === "string" ? [new HumanMessage(task.input)] : task.input;
}

function inputText(task: EvalTask): string {
  if (typeof task.input === "string") return task.input;
  return task.input
    .map((m: any) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)))
    .join("\n");
}

function filesOf(value: unknown): Record<string, string> | undefined {
  if (!value || typeof value !== "object") return undefined;
  const files: Record<string, string> = {};
  for (const [path, data] of Object.entries(value as Record<string, any>)) {
    if (data === null || data === undefined) continue;
    files[path] =
      typeof data === "string"
        ? data
        : Array.isArray(data.content)
          ? data.content.join("\n")
          : String(data.content ?? "");
  }
  return files;
}

// The scripted answer to each pending question, in order.
async function answerAll(
  policy: AnswerPolicy | undefined,
  questions: PendingQuestion[],
  asked: number,
): Promise<Array<{ answer: unknown }>> {
  const answers = await Promise.all(
    questions.map(async (question, i) => {
      if (question.error) throw new Error(`the scripted answer was refused: ${question.error}`);
      if (policy === undefined) {
        throw new Error(`ask_user asked "${question.question}", but the task scripts no answers`);
      }
      if (typeof policy === "string") return { answer: policy };
      if (typeof policy === "function") {
        const answer = await policy(question);
        return typeof answer === "string" ? { answer } : (answer as { answer: unknown });
      }
      const answer = policy[asked + i];
      if (answer === undefined) {
        throw new Error(
          `ask_user asked "${question.question}" after the ${policy.length} scripted answers`,
        );
      }
      return { answer };
    }),
  );
  return answers;
}

// A question and its scripted answer, placed after the model call that asked it.
function questionMark(session: ModelSession, q: PendingQuestion, answer: unknown): ApprovalMark {
  return {
    afterCall: session.calls.length,
    event: {
      kind: "question",
      callId: q.toolCallId,
      question: q.question,
      ...(q.choices?.length ? { choices: q.choices } : {}),
      multiSelect: q.multiSelect,
      answer: Array.isArray(answer) ? answer.map(String) : String(answer),
    },
  };
}

async function decide(
  policy: ApprovalPolicy,
  request: any,
): Promise<Array<Record<string, unknown>>> {
  const count = request?.actionRequests?.length ?? 0;
  if (policy === "approve") return Array.from({ length: count }, () => ({ type: "approve" }));
  if (policy === "reject") {
    return Array.from({ length: count }, () => ({
      type: "reject",
      message: "Rejected by the reviewer.",
    }));
  }
  return policy(request);
}

// Ties an approval request to the calls of the model turn it paused.
function approvalMark(
  session: ModelSession,
  request: any,
  decisions: Array<Record<string, unknown>>,
): ApprovalMark {
  const last = session.calls.at(-1)?.response as AIMessage | undefined;
  const calls = [...(last?.tool_calls ?? [])];
  const actions: Array<{ name: string; args: unknown }> = request?.actionRequests ?? [];
  const callIds = actions.map((a) => {
    const i = calls.findIndex((c) => c.name === a.name && isDeepStrictEqual(c.args, a.args));
    const j = i >= 0 ? i : calls.findIndex((c) => c.name === a.name);
    const [call] = j >= 0 ? calls.splice(j, 1) : [];
    return call?.id ?? "?";
  });
  return {
    afterCall: session.calls.length,
    event: {
      kind: "approval",
      callIds,
      tools: actions.map((a) => a.name),
      decisions: decisions.map((d) => String(d.type ?? "?")),
    },
  };
}
