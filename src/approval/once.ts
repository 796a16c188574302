import { randomUUID } from "node:crypto";
import { isGraphInterrupt } from "@langchain/langgraph";
import { canonicalJson } from "../claims/canonical-json.js";
import { type ClaimTable, claimTableOf } from "../claims/claim-table.js";
import { runCheckpointer, runConfigurable, runTaskId } from "../langchain-seam/pregel-config.js";

// LangGraph has no per-thread lock: two resumes of one interrupt both load the pending
// checkpoint and both run. These claims live in the checkpointer's own database (SQLite or
// PostgreSQL; in-process for MemorySaver), so the first resume wins in every process.

/**
 * What a claim is for: the decisions of a model turn, one approved call of it, or the answer
 * to one `ask_user` question.
 */
type ClaimKind = "approval-decisions" | "approval-call" | "user-answer";
const KINDS: readonly ClaimKind[] = ["approval-decisions", "approval-call", "user-answer"];

// A claim's key: a JSON array [kind, thread, ...], so a thread's keys share a text prefix.
const claimKey = (kind: ClaimKind, thread: string, ...rest: string[]) =>
  JSON.stringify([kind, thread, ...rest]);

interface RunContext {
  claims: ClaimTable;
  thread: string;
  /** The Pregel task running now: the same task id again means a replay of this task. */
  task: string;
}

// Outside a graph run (a direct middleware call in a test) claims are per process.
function runContext(): RunContext {
  return {
    claims: claimTableOf(runCheckpointer()),
    thread: String(runConfigurable()?.thread_id ?? ""),
    task: runTaskId() ?? randomUUID(),
  };
}

/**
 * Records the decisions for the model turn `messageId` of this thread. Returns undefined
 * when these decisions stand (first, or the same as the first), else why they cannot.
 */
export async function claimDecisions(
  messageId: string,
  decisions: unknown,
): Promise<string | undefined> {
  // Without a message id there is nothing stable to key on (the messages reducer gives
  // every stored message one, so this is a message that never reached state).
  if (!messageId) return undefined;
  if (await claimFirstValue("approval-decisions", messageId, decisions)) return undefined;
  return "Already decided: another resume of this approval answered it first, with other decisions. Nothing ran for this resume.";
}

/**
 * Records `value` as the first one for `id` in this thread. True when it stands (it is the
 * first, or equal to the first); false when another resume claimed a different value.
 */
export async function claimFirstValue(kind: ClaimKind, id: string, value: unknown) {
  const { claims, thread } = runContext();
  const mine = canonicalJson(value);
  const found = await claims.insert(claimKey(kind, thread, id), mine);
  return found === undefined || found === mine;
}

/**
 * Runs an approved call unless another resume of the same approval already ran (or is
 * running) it: then returns `alreadyRan()` instead. A run that pauses on its own interrupt
 * (a subagent's approval) parks its claim, so only the resume of that same task takes it back.
 */
export async function runApprovedOnce<T>(
  messageId: string,
  callId: string,
  run: () => Promise<T>,
  alreadyRan: () => T,
): Promise<T> {
  if (!messageId) return run();
  const { claims, thread, task } = runContext();
  const key = claimKey("approval-call", thread, messageId, callId);
  const running = JSON.stringify({ state: "running", task });
  const parked = JSON.stringify({ state: "interrupted", task });
  const found = await claims.insert(key, running);
  if (found !== undefined && !(found === parked && (await claims.swap(key, parked, running)))) {
    return alreadyRan();
  }
  try {
    return await run();
  } catch (error) {
    if (isGraphInterrupt(error)) await claims.swap(key, running, parked);
    throw error;
  }
}

const CLEANS = Symbol.for("delve.thread_claim_cleanup");

/**
 * Makes `saver.deleteThread(id)` also delete the approval claims of that thread (in the
 * saver's database, or this process's memory for MemorySaver), so they do not pile up and a
 * reused thread id starts clean. In place; returns the saver. `createDeepAgent` applies it.
 */
export function withThreadClaimCleanup<T>(saver: T): T {
  const s = saver as any;
  if (!s || typeof s !== "object" || typeof s.deleteThread !== "function" || s[CLEANS]) {
    return saver;
  }
  const deleteThread = s.deleteThread.bind(s);
  s.deleteThread = async (threadId: string) => {
    await deleteThread(threadId);
    const claims = claimTableOf(s);
    for (const kind of KINDS) {
      // A key's text up to the comma after the thread.
      await claims.removePrefix(`${claimKey(kind, String(threadId)).slice(0, -1)},`);
    }
  };
  s[CLEANS] = true;
  return saver;
}
