import { AIMessage } from "@langchain/core/messages";
import { GraphRecursionError } from "@langchain/langgraph";
import { BUDGET_KEY, type LimitHit, type RunLimits } from "./types.js";

// A model call takes at most this many graph steps (model, tools, before/after hooks), so
// a `modelCalls` budget always stops a run before the recursion limit does.
const STEPS_PER_MODEL_CALL = 8;

/** The recursion limit a deep agent runs with: above what `limits.modelCalls` needs, at least `floor`. */
export function recursionLimitFor(limits: RunLimits, floor: number): number {
  const fromBudget = (limits.modelCalls ?? 0) * STEPS_PER_MODEL_CALL + 50;
  return Math.max(floor, fromBudget);
}

function hitOf(config: any, fallback: number): LimitHit {
  const value = typeof config?.recursionLimit === "number" ? config.recursionLimit : fallback;
  return {
    name: "recursionLimit",
    value,
    used: value,
    reason: `The run stopped: it took ${value} graph steps (the recursion limit).`,
  };
}

/**
 * Makes a `GraphRecursionError` from `invoke` end the run like a budget: the thread (with a
 * checkpointer) gets the final message and the `limit` marker, and `invoke` returns its state.
 */
export function withRecursionStop<T extends object>(agent: T, fallback: number): T {
  const target = agent as any;
  const invoke = target.invoke?.bind(agent);
  if (!invoke) return agent;
  target.invoke = async (input: unknown, config?: any) => {
    try {
      return await invoke(input, config);
    } catch (error) {
      if (
        !(error instanceof GraphRecursionError) &&
        (error as Error)?.name !== "GraphRecursionError"
      )
        throw error;
      const hit = hitOf(config, fallback);
      const message = new AIMessage({
        content: `${hit.reason} Send a new message on this thread to continue, or invoke with a higher recursionLimit.`,
        response_metadata: { delve_limit: hit.name },
      });
      if (!config?.configurable?.thread_id || !target.checkpointer)
        return { messages: [message], [BUDGET_KEY]: { limit: hit } };
      await target.updateState(config, { messages: [message], [BUDGET_KEY]: { limit: hit } });
      return (await target.getState(config)).values;
    }
  };
  return agent;
}
