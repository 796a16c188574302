// What a paused thread waits on (approvals and `ask_user` questions) and the resume value
// that answers it: the engine's reading of LangGraph's interrupts, apart from its driving.
import { isUserQuestion, type UserQuestion } from "../ask-user/question.js";
import type { PendingCall, RunDecision, RunQuestion } from "./events.js";
import { narrowestRule } from "./rules.js";

/** A decision that cannot answer what the thread waits on: the message says what to give. */
export class InvalidDecisionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidDecisionError";
  }
}

/** One interrupt of the pause and the calls or the question it holds, in order. */
type PauseItem =
  | { kind: "approvals"; interrupt: any; calls: PendingCall[] }
  | { kind: "question"; interrupt: any; question: RunQuestion };

/** A paused thread read from its state snapshot. */
export interface Pause {
  calls: PendingCall[];
  questions: RunQuestion[];
  interrupts: any[];
  checkpoint: string;
  items: PauseItem[];
}

/** Reads the approvals and questions a state snapshot waits on. */
export function readPause(state: any, workspace: string): Pause {
  // A task answered by an earlier partial resume has its result and still lists its
  // interrupt (the step, and so the checkpoint, is not done until every task is).
  const interrupts = (state?.tasks ?? [])
    .filter((t: any) => t.result === undefined)
    .flatMap((t: any) => t.interrupts ?? []);
  const unanswered = unansweredCalls(state?.values?.messages ?? []);
  const items: PauseItem[] = [];
  for (const intr of interrupts) {
    const request = intr.value ?? {};
    if (isUserQuestion(request)) {
      items.push({ kind: "question", interrupt: intr, question: runQuestion(request) });
      continue;
    }
    const calls = (request.actionRequests ?? []).map((action: any, i: number): PendingCall => {
      const match = unanswered.findIndex(
        (c) => c.name === action.name && JSON.stringify(c.args) === JSON.stringify(action.args),
      );
      const id = match >= 0 ? unanswered.splice(match, 1)[0]!.id : `${intr.id}:${i}`;
      return {
        call_id: id,
        tool: action.name,
        args: action.args,
        description: String(action.description ?? ""),
        decisions: request.reviewConfigs?.[i]?.allowedDecisions ?? ["approve", "reject"],
        suggested_rule: narrowestRule(
          { name: action.name, args: action.args ?? {} },
          { workspace },
        ),
      };
    });
    if (calls.length) items.push({ kind: "approvals", interrupt: intr, calls });
  }
  return {
    calls: items.flatMap((i) => (i.kind === "approvals" ? i.calls : [])),
    questions: items.flatMap((i) => (i.kind === "question" ? [i.question] : [])),
    interrupts,
    checkpoint: String(state?.config?.configurable?.checkpoint_id ?? ""),
    items,
  };
}

function runQuestion(q: UserQuestion): RunQuestion {
  return {
    call_id: q.toolCallId,
    question: q.question,
    ...(q.choices?.length ? { choices: q.choices } : {}),
    ...(q.multiSelect ? { multiple: true } : {}),
    ...(q.error ? { error: q.error } : {}),
  };
}

/**
 * The `Command` resume value for `decisions`: one for each pending call, in order, then one
 * `answer` for each question, in order. Throws `InvalidDecisionError` when they do not fit.
 */
export function resumeOf(pause: Pause, decisions: RunDecision[]): unknown {
  const { calls, questions } = pause;
  if (decisions.length !== calls.length + questions.length) {
    throw new InvalidDecisionError(
      `the thread waits on ${calls.length} approval(s) and ${questions.length} question(s); ${decisions.length} decision(s) were given (one each: approvals first, then answers, in order).`,
    );
  }
  const approvals = decisions.slice(0, calls.length);
  const answers = decisions.slice(calls.length);
  approvals.forEach((d, i) => {
    if (d.type === "answer") {
      throw new InvalidDecisionError(
        `call ${calls[i]!.call_id} (${calls[i]!.tool}) waits for an approval: approve, edit or reject it, not answer.`,
      );
    }
  });
  const byInterrupt: Record<string, unknown> = {};
  let a = 0;
  let q = 0;
  for (const item of pause.items) {
    if (item.kind === "approvals") {
      const mine = approvals.slice(a, a + item.calls.length);
      byInterrupt[item.interrupt.id] = {
        decisions: mine.map((d, i) => toHitl(d, item.calls[i]!)),
      };
      a += item.calls.length;
    } else {
      byInterrupt[item.interrupt.id] = answerValue(item.question, answers[q++]!);
    }
  }
  const ids = Object.keys(byInterrupt);
  return ids.length === 1 ? byInterrupt[ids[0]!] : byInterrupt;
}

/**
 * The resume value that answers only the question of `callId`: the pause's other questions
 * and approvals stay pending (LangGraph resumes interrupts by id). Throws
 * `InvalidDecisionError` when no such question waits or the answer does not fit.
 */
export function resumeOne(pause: Pause, callId: string, decision: RunDecision): unknown {
  const item = pause.items.find((i) => i.kind === "question" && i.question.call_id === callId);
  if (item?.kind !== "question") {
    const asked = pause.questions.map((q) => q.call_id).join(", ") || "none";
    throw new InvalidDecisionError(`no question ${callId} waits; asked: ${asked}.`);
  }
  const value = answerValue(item.question, decision);
  return pause.items.length === 1 ? value : { [item.interrupt.id]: value };
}

/**
 * The `{ answer }` an `answer` decision resumes `ask_user` with: `choices` must be the
 * question's own, a single-answer question takes one answer, an empty answer is refused.
 */
export function answerValue(question: RunQuestion, decision: RunDecision): { answer: unknown } {
  if (decision.type !== "answer") {
    throw new InvalidDecisionError(
      `call ${question.call_id} asks a question ("${question.question}"): answer it (delve answer), it takes no ${decision.type}.`,
    );
  }
  const picked = decision.choices ?? [];
  const offered = question.choices ?? [];
  for (const choice of picked) {
    if (!offered.includes(choice)) {
      throw new InvalidDecisionError(
        offered.length
          ? `"${choice}" is not a choice of "${question.question}"; the choices are: ${offered.map((c) => JSON.stringify(c)).join(", ")} (or answer in your own words).`
          : `"${question.question}" offers no choices; answer in your own words.`,
      );
    }
  }
  const text = decision.text?.trim();
  const all = [...picked, ...(text ? [text] : [])];
  if (all.length === 0)
    throw new InvalidDecisionError("the answer is empty: give text or a choice.");
  if (!question.multiple && all.length > 1) {
    throw new InvalidDecisionError(
      `"${question.question}" takes one answer; ${all.length} were given (${all.map((c) => JSON.stringify(c)).join(", ")}).`,
    );
  }
  return { answer: question.multiple ? all : all[0] };
}

function toHitl(decision: RunDecision, call: PendingCall): Record<string, unknown> {
  if (decision.type === "edit") {
    return { type: "edit", editedAction: { name: call.tool, args: decision.args } };
  }
  if (decision.type === "reject") {
    return decision.message ? { type: "reject", message: decision.message } : { type: "reject" };
  }
  return { type: "approve" };
}

/** Tool calls of the last AI message that have no result yet. */
export function unansweredCalls(messages: any[]): Array<{ id: string; name: string; args: any }> {
  const index = messages.findLastIndex((m) => m?.getType?.() === "ai");
  if (index < 0) return [];
  const answered = new Set(
    messages.slice(index + 1).map((m) => (m?.getType?.() === "tool" ? m.tool_call_id : undefined)),
  );
  return (messages[index].tool_calls ?? [])
    .filter((c: any) => !answered.has(c.id))
    .map((c: any) => ({ id: c.id ?? "", name: c.name, args: c.args }));
}
