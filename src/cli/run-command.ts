import fs from "node:fs";
import type { RunLimits, RunSession, SessionOptions } from "../run/engine.js";
import type { RunDecision, RunEvent } from "../run/events.js";
import type { ParsedArgs } from "./args.js";
import { UsageError } from "./args.js";
import { parseEditArgs } from "./edit-args.js";
import { exitCodeOf, type OutputMode, printer } from "./printer.js";

/** The exit code when another process decided the approval first. */
export const ALREADY_DECIDED_EXIT = 4;

const str = (v: unknown) => (typeof v === "string" ? v : undefined);

/** The `--max-turns`, `--timeout` and `--max-cost` of a command. */
export function limitsOf(values: ParsedArgs["values"]): RunLimits {
  const n = (name: string) => (str(values[name]) === undefined ? undefined : Number(values[name]));
  const timeout = n("timeout");
  return {
    ...(n("max-turns") !== undefined ? { maxTurns: n("max-turns") } : {}),
    ...(timeout !== undefined ? { timeoutMs: timeout * 1000 } : {}),
    ...(n("max-cost") !== undefined ? { maxCostUsd: n("max-cost") } : {}),
  };
}

function readPrices(file: string | undefined) {
  if (!file) return undefined;
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    throw new UsageError(`--prices ${file}: cannot read it as JSON (${(error as Error).message}).`);
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8").trim();
}

async function taskOf(args: ParsedArgs): Promise<string | undefined> {
  const given = args.positionals[0];
  if (given !== undefined && given !== "-") return given;
  if (given === "-" || !process.stdin.isTTY) {
    const text = await readStdin();
    return text || undefined;
  }
  return undefined;
}

/** The session options every running command shares (`--cwd`, `--prices`, notices). */
export function sessionOptions(args: ParsedArgs, extra: Partial<SessionOptions>): SessionOptions {
  const v = args.values;
  return {
    workspace: str(v.cwd) ?? process.cwd(),
    ...(str(v.prices) ? { prices: readPrices(str(v.prices)) } : {}),
    notice: (line) => process.stderr.write(`delve: ${line}\n`),
    ...extra,
  };
}

/** Prints the thread event, then `events`; the exit code of their result. */
export async function stream(
  session: RunSession,
  mode: OutputMode,
  events: AsyncGenerator<RunEvent>,
): Promise<number> {
  const out = printer(mode);
  const s = session.thread.settings;
  out.print({
    v: 1,
    type: "thread",
    thread_id: session.thread.id,
    resumed: session.resumed,
    workspace: session.workspace,
    model: s.model,
    sandbox: s.sandbox,
    approval: s.approval,
  });
  for await (const event of events) out.print(event);
  return exitCodeOf(out.result());
}

/** `delve run [TASK]`. */
export async function runCommand(args: ParsedArgs): Promise<number> {
  const { openSession } = await import("../run/engine.js");
  const v = args.values;
  const task = await taskOf(args);
  const resuming = Boolean(v.continue || v.thread);
  if (!task && !resuming) {
    throw new UsageError(
      'name the task: delve run "fix the failing test" (or pipe it on stdin, or -c to continue).',
    );
  }
  const session = await openSession(
    sessionOptions(args, {
      ...(str(v.thread) ? { threadId: str(v.thread) } : {}),
      continueLatest: Boolean(v.continue),
      ...(task ? { title: task } : {}),
      ...(str(v.model) ? { model: str(v.model) } : {}),
      ...(str(v.agent) ? { agent: str(v.agent) } : {}),
      ...(str(v.sandbox) ? { sandbox: str(v.sandbox) as "auto" } : {}),
      ...(str(v.approval) ? { approval: str(v.approval) as "ask" } : {}),
      ...(str(v.mcp) ? { mcp: str(v.mcp) } : {}),
      ...(str(v.replay) ? { replay: str(v.replay) } : {}),
      ...(str(v.record) ? { record: str(v.record) } : {}),
      ...(v["ask-user"] ? { askUser: true } : {}),
      ...(str(v["human-io"]) ? { humanIo: str(v["human-io"]) } : {}),
    }),
  );
  try {
    const mode = (str(v.output) ?? "text") as OutputMode;
    const s = session.thread.settings;
    if (s.sandbox === "none")
      process.stderr.write("delve: execute runs on the host, not in a sandbox (--sandbox none)\n");
    if (s.approval === "yolo")
      process.stderr.write("delve: approval yolo: every call runs unless a deny rule stops it\n");
    const pending = session.resumed ? await session.pending() : [];
    const questions = session.resumed ? await session.questions() : [];
    if (pending.length || questions.length) {
      if (task) {
        throw new UsageError(
          pending.length
            ? `thread ${session.thread.id} waits for an approval; decide it first: delve approve ${session.thread.id}`
            : `thread ${session.thread.id} waits for an answer to "${questions[0]!.question}"; answer it first: delve answer ${session.thread.id} "TEXT"`,
        );
      }
      // Continuing a paused thread without a decision: report the pause again.
      return stream(session, mode, session.send(undefined));
    }
    return await stream(session, mode, session.send(task, limitsOf(v)));
  } finally {
    await session.close();
  }
}

/** `delve approve THREAD`. */
export async function approveCommand(args: ParsedArgs): Promise<number> {
  const { openSession, AlreadyDecidedError } = await import("../run/engine.js");
  const v = args.values;
  const threadId = args.positionals[0];
  if (!threadId)
    throw new UsageError("name the thread: delve approve THREAD (delve pending lists them).");
  if (v.edit && v.reject) throw new UsageError("use --edit or --reject, not both.");
  if (v.reason && !v.reject) throw new UsageError("--reason goes with --reject.");
  let decision: RunDecision = { type: "approve" };
  if (v.reject) decision = { type: "reject", ...(str(v.reason) ? { message: str(v.reason) } : {}) };
  const edit = str(v.edit);
  if (edit !== undefined) decision = { type: "edit", args: parseEditArgs(edit) };
  const session = await openSession(sessionOptions(args, { threadId }));
  try {
    const pending = await session.pending();
    const questions = await session.questions();
    if (questions.length) {
      throw new UsageError(
        `thread ${threadId} waits for an answer to "${questions[0]!.question}"${pending.length ? " before its approvals" : ""}: answer first with delve answer ${threadId} "TEXT"${questions.length > 1 ? " --call ID" : ""}.`,
      );
    }
    if (!pending.length) {
      process.stderr.write(
        `delve: thread ${threadId} waits for no approval (already decided, or never paused).\n`,
      );
      return ALREADY_DECIDED_EXIT;
    }
    const callId = str(v.call);
    if (callId && !pending.some((c) => c.call_id === callId)) {
      throw new UsageError(
        `thread ${threadId} has no pending call ${callId}; pending: ${pending.map((c) => c.call_id).join(", ")}.`,
      );
    }
    if (callId && pending.length > 1) {
      throw new UsageError(
        `${pending.length} calls wait together (${pending.map((c) => c.call_id).join(", ")}): run approve without --call to decide them all alike.`,
      );
    }
    if (!(await session.claim())) {
      process.stderr.write(
        `delve: already decided: another process answered thread ${threadId} first.\n`,
      );
      return ALREADY_DECIDED_EXIT;
    }
    const mode = (str(v.output) ?? "text") as OutputMode;
    try {
      return await stream(
        session,
        mode,
        session.decide(
          pending.map(() => decision),
          limitsOf(v),
        ),
      );
    } catch (error) {
      if (error instanceof AlreadyDecidedError) {
        process.stderr.write(`delve: ${error.message}\n`);
        return ALREADY_DECIDED_EXIT;
      }
      throw error;
    }
  } finally {
    await session.close();
  }
}
