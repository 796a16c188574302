// What of the compiled agent a run session hands out: LangGraph's public checkpoint API.
import type { BaseCheckpointSaver } from "@langchain/langgraph";

/** The LangGraph config that names a thread (and, for time travel, one of its checkpoints). */
export interface ThreadConfig {
  configurable: { thread_id: string; checkpoint_id?: string; checkpoint_ns?: string };
}

/**
 * The compiled agent's public LangGraph checkpoint API, as session operations (rewind,
 * compaction) use it; the object itself also goes to `inspectSurface`.
 */
export interface SessionGraph {
  getState(config: ThreadConfig): Promise<any>;
  getStateHistory(
    config: ThreadConfig,
    options?: { filter?: Record<string, unknown>; limit?: number },
  ): AsyncIterable<any>;
  updateState(config: ThreadConfig, values: unknown, asNode?: string): Promise<ThreadConfig>;
  /** The agent's checkpointer (its raw checkpoints list fast: no state is rebuilt). */
  readonly checkpointer?: BaseCheckpointSaver | boolean;
}
