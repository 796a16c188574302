// Writing into a thread between turns with LangGraph's public `updateState`, so the thread
// stays finished: the next `send` starts a new turn, and nothing of an ended one runs again.
import { END } from "@langchain/langgraph";
import type { RunSession } from "../engine.js";
import type { ThreadConfig } from "../session-graph.js";

/**
 * Marks the checkpoint's pending nodes finished when it has any (an update is written as the
 * node that ran last, whose successors would otherwise run on the next call): `updateState`
 * with no values as END. Returns the thread's newest checkpoint.
 */
export async function settle(session: RunSession, config: ThreadConfig): Promise<ThreadConfig> {
  const state = await session.agent.getState(config);
  if (!(state?.next ?? []).length) return config;
  return session.agent.updateState(config, null, END);
}

/** Writes `values` through the state's reducers at `config`, then settles the thread. */
export async function writeState(
  session: RunSession,
  config: ThreadConfig,
  values: Record<string, unknown>,
): Promise<ThreadConfig> {
  return settle(session, await session.agent.updateState(config, values));
}
