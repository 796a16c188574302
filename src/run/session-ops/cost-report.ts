// Tokens and USD of a thread, per model and per agent (the main agent, each subagent type,
// the summarizer), from the usage records in its state.
import type { RunSession } from "../engine.js";
import { readUsage, summarizeUsage, type UsageSummary } from "../usage.js";

/** What `costReport` returns: the usage summary, priced with the session's prices. */
export interface CostReport extends UsageSummary {
  /** The thread's configured model ("provider:model"). */
  model: string;
}

/**
 * The thread's tokens and cost, overall, per model and per agent. A record whose model has
 * no provider prefix is priced as the thread's model, as the engine's totals are.
 */
export async function costReport(session: RunSession): Promise<CostReport> {
  const state = await session.agent.getState(session.config);
  const model = session.thread.settings.model;
  const records = readUsage(state?.values ?? {}).map((r) =>
    r.model.includes(":") ? r : { ...r, model },
  );
  return { model, ...summarizeUsage(records, session.prices) };
}
