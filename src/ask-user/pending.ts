import { isUserQuestion, type UserQuestion } from "./question.js";

/** A question waiting for its answer, with the id of its interrupt. */
export interface PendingQuestion extends UserQuestion {
  /** Resume several at once with `new Command({ resume: { [interruptId]: { answer } } })`. */
  interruptId?: string;
}

type Interrupt = { id?: string; value?: unknown };
type Task = { interrupts?: Interrupt[]; result?: unknown };

/**
 * The `ask_user` questions a paused thread waits on (a subagent's included), from an
 * `invoke` result (`__interrupt__`) or a state snapshot (`await agent.getState(config)`).
 * Empty when nothing is asked.
 *
 * @example
 * const [question] = pendingQuestions(await agent.invoke(input, config));
 * if (question) await agent.invoke(new Command({ resume: { answer: "blue" } }), config);
 */
export function pendingQuestions(state: unknown): PendingQuestion[] {
  const s = state as { __interrupt__?: Interrupt[]; tasks?: Task[] };
  // A task already answered (one of several questions resumed by id) has its result but
  // still lists its interrupt until the whole step is done.
  const open = (t: Task) => (t.result === undefined ? (t.interrupts ?? []) : []);
  const interrupts = [
    ...(Array.isArray(s?.__interrupt__) ? s.__interrupt__ : []),
    ...(Array.isArray(s?.tasks) ? s.tasks.flatMap(open) : []),
  ];
  const seen = new Set<unknown>();
  const out: PendingQuestion[] = [];
  for (const i of interrupts) {
    if (!isUserQuestion(i?.value) || seen.has(i.id ?? i.value)) continue;
    seen.add(i.id ?? i.value);
    out.push({ ...i.value, ...(i.id ? { interruptId: i.id } : {}) });
  }
  return out;
}
