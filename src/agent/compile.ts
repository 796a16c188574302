// The one place an agent is compiled: the main agent, its surface probe, the general-purpose
// subagent and each declarative subagent all go through `compileStack`, so every graph gets
// the same compact state, slim tool sends and node cache.
import type { SystemMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver, BaseStore } from "@langchain/langgraph";
import type { BaseCache } from "@langchain/langgraph-checkpoint";
import { createAgent } from "langchain";
import { compactStateSchema } from "../checkpoint/delta-state.js";
import { slimToolSends } from "../checkpoint/slim-tool-sends.js";
import { cacheModelCalls } from "../langchain-seam/agent-graph.js";
import { hoistHookStates } from "./hook-state.js";
import type { StackMiddleware, StackModel, StackTool } from "./langchain-types.js";
import { modelCallCachePolicy } from "./model-call-cache.js";

/** What one compiled agent (or subagent) is built from. */
export interface CompileInput {
  model: StackModel;
  tools: StackTool[];
  systemPrompt?: string | SystemMessage;
  middleware: StackMiddleware[];
  name?: string;
  responseFormat?: unknown;
  /** The caller's extra state; the compact `messages` and `files` channels are added. */
  stateSchema?: unknown;
  contextSchema?: unknown;
  store?: BaseStore;
  checkpointer?: BaseCheckpointSaver | boolean;
  /** Delta channels save a full copy every this many updates. */
  snapshotEvery?: number;
  /** Serves repeated model calls of this graph (see docs/agent.md, `cache`). */
  cache?: BaseCache;
  /** Run defaults baked into the graph (`recursionLimit`, `maxConcurrency`). */
  defaults?: { recursionLimit?: number; maxConcurrency?: number };
}

/**
 * Compiles one stack with LangChain's `createAgent`: compact state channels, the channels of
 * Delve's model-call layers declared on the agent (`hoistHookStates`), tool calls sent
 * without a copy of the state, and (with `cache`) the model node served from the cache.
 *
 * @example
 * const agent = compileStack({ model, tools: stack.tools, middleware: stack.middleware });
 */
export function compileStack(input: CompileInput): any {
  const { snapshotEvery, cache, defaults, ...params } = input;
  const hoisted = hoistHookStates(input.middleware);
  let agent: any = createAgent({
    ...params,
    middleware: hoisted.middleware,
    stateSchema: compactStateSchema(input.stateSchema, snapshotEvery, hoisted.fields),
  } as any);
  // withConfig compiles a new graph, so the cache goes on the final one.
  if (defaults) agent = agent.withConfig(defaults);
  if (cache) cacheModelCalls(agent, cache, modelCallCachePolicy(input));
  return slimToolSends(agent);
}
