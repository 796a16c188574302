// Forking a thread (LangGraph time travel into a new thread): the new thread starts with the
// state the parent had at one checkpoint, then runs the edited message from there.
import { unansweredCalls } from "./pause.js";
import { ForkPointError } from "./run-errors.js";
import type { ThreadParent } from "./threads-db.js";

/** Which checkpoint of which thread a new thread forks from (none: before its first). */
export interface ForkOf {
  threadId: string;
  checkpointId?: string;
}

/** The parent's state at the fork point, read through the agent that will run the fork. */
export interface ForkBase {
  parent: ThreadParent;
  values?: Record<string, unknown>;
}

/**
 * Reads the parent's state at `fork.checkpointId`. A checkpoint whose last model call has tool
 * calls without results cannot take a message (the provider needs each call answered first).
 */
export async function readForkBase(agent: any, fork: ForkOf): Promise<ForkBase> {
  if (!fork.checkpointId) {
    return { parent: { thread_id: fork.threadId, checkpoint_id: null, step: -1 } };
  }
  const config = { configurable: { thread_id: fork.threadId, checkpoint_id: fork.checkpointId } };
  const snapshot = await agent.getState(config);
  // A checkpoint the thread lacks comes back as an empty snapshot echoing the config.
  if (!snapshot?.metadata || !snapshot.values) {
    throw new ForkPointError(fork.threadId, fork.checkpointId, "unknown");
  }
  if (unansweredCalls(snapshot.values.messages ?? []).length) {
    throw new ForkPointError(fork.threadId, fork.checkpointId, "calls_pending");
  }
  return {
    parent: {
      thread_id: fork.threadId,
      checkpoint_id: fork.checkpointId,
      step: Number(snapshot.metadata?.step ?? 0),
    },
    values: snapshot.values,
  };
}

/** Writes the parent's state as the new thread's first checkpoint (an update through its input). */
export async function seedFork(agent: any, threadId: string, base: ForkBase): Promise<void> {
  if (!base.values) return;
  await agent.updateState({ configurable: { thread_id: threadId } }, base.values);
}
