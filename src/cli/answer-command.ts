import type { RunDecision } from "../run/events.js";
import { type ParsedArgs, UsageError } from "./args.js";
import type { OutputMode } from "./printer.js";
import { ALREADY_DECIDED_EXIT, stream } from "./run-command.js";
import { limitsOf, sessionOptions } from "./session-flags.js";

const str = (v: unknown) => (typeof v === "string" ? v : undefined);

/**
 * `delve answer THREAD [TEXT] [--choice C]... [--call ID]`: answers one `ask_user` question
 * the thread waits on (`--call` picks it when several wait) and runs on until the run ends
 * or pauses again, printing like run. Exit 4 when another process answered first.
 */
export async function answerCommand(args: ParsedArgs): Promise<number> {
  const { openSession, AlreadyDecidedError, InvalidDecisionError } = await import(
    "../run/engine.js"
  );
  const v = args.values;
  const [threadId, text] = args.positionals;
  if (!threadId) {
    throw new UsageError('name the thread: delve answer THREAD "TEXT" (delve pending lists them).');
  }
  const choices = Array.isArray(v.choice) ? v.choice : [];
  if (text === undefined && !choices.length) {
    throw new UsageError(`give the answer: delve answer ${threadId} "TEXT" or --choice CHOICE.`);
  }
  const decision: Extract<RunDecision, { type: "answer" }> = {
    type: "answer",
    ...(text !== undefined ? { text } : {}),
    ...(choices.length ? { choices } : {}),
  };
  const session = await openSession(sessionOptions(args, { threadId }));
  try {
    const [pending, questions] = await Promise.all([session.pending(), session.questions()]);
    if (!questions.length) {
      process.stderr.write(
        `delve: thread ${threadId} waits for no answer (already answered, or never asked)${pending.length ? `; it waits for an approval: delve approve ${threadId}` : ""}.\n`,
      );
      return ALREADY_DECIDED_EXIT;
    }
    const callId = str(v.call);
    if (callId && !questions.some((q) => q.call_id === callId)) {
      throw new UsageError(
        `thread ${threadId} asks no question ${callId}; asked: ${questions.map((q) => q.call_id).join(", ")}.`,
      );
    }
    if (!callId && questions.length > 1) {
      throw new UsageError(
        `${questions.length} questions wait (parallel subagents); answer each with --call: ${questions.map((q) => `${q.call_id} "${q.question}"`).join(", ")}.`,
      );
    }
    const target = callId ?? questions[0]!.call_id;
    const mode = (str(v.output) ?? "text") as OutputMode;
    try {
      // Checked before the claim, so a wrong choice leaves the question open.
      // The pause's other questions and approvals stay pending: the run pauses on them again.
      const events = session.answer(target, decision, limitsOf(v));
      const first = await events.next();
      return await stream(session, mode, replayFirst(first, events));
    } catch (error) {
      if (error instanceof AlreadyDecidedError) {
        process.stderr.write(`delve: ${error.message}\n`);
        return ALREADY_DECIDED_EXIT;
      }
      if (error instanceof InvalidDecisionError) {
        // The question was there a moment ago: another process answered it in between.
        if (!(await session.questions()).some((q) => q.call_id === target)) {
          process.stderr.write(
            `delve: already decided: another process answered thread ${threadId} first.\n`,
          );
          return ALREADY_DECIDED_EXIT;
        }
        throw new UsageError(error.message);
      }
      throw error;
    }
  } finally {
    await session.close();
  }
}

// The generator again, with its first (already awaited) step in front.
async function* replayFirst<T>(
  first: IteratorResult<T>,
  rest: AsyncGenerator<T>,
): AsyncGenerator<T> {
  if (first.done) return;
  yield first.value;
  yield* rest;
}
