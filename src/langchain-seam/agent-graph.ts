// Relies on: langchain's `createAgent` compiles a LangGraph whose tool node is
// `graph.nodes.tools`, a PregelNode whose `bound` is the ToolNode holding every registered
// tool in `tools` (client tools and middleware tools, hidden ones included); the model node
// is `graph.nodes.model_request`; a PregelNode's `cachePolicy` and the compiled graph's
// `cache` are read when each run starts and each task is prepared, so setting them after
// compile takes effect; each tool call runs as its own `tools` task whose input (a Send's
// argument, shown by the `tasks` stream mode) holds the call as `lg_tool_call`. None of this
// is public API.
// Checked against: langchain 1.5.14, @langchain/core 1.4.0, @langchain/langgraph 1.7.3.
import type { CachePolicy } from "@langchain/langgraph";
import type { BaseCache } from "@langchain/langgraph-checkpoint";

/** What a compiled agent is, as far as Delve reads it: its graph's nodes. */
export interface AgentGraphLike {
  graph?: { nodes?: Record<string, unknown> };
}

/** The node of a compiled agent that calls the model (langchain's `AGENT_NODE_NAME`). */
export const MODEL_NODE = "model_request";

/** The node of a compiled agent that runs tool calls (langchain's `TOOLS_NODE_NAME`). */
export const TOOLS_NODE = "tools";

/**
 * The tools registered in an agent's tool node, hidden ones included; empty when the agent
 * has no tool node (no client tool and no middleware with `wrapToolCall`).
 *
 * @example
 * registeredTools(createAgent({ model, tools: [getTicket] })).map((t) => t.name) // ["get_ticket"]
 */
export function registeredTools(agent: unknown): readonly { name?: unknown }[] {
  const node = (agent as AgentGraphLike | undefined)?.graph?.nodes?.[TOOLS_NODE] as
    | { bound?: { tools?: readonly { name?: unknown }[] } }
    | undefined;
  return node?.bound?.tools ?? [];
}

/**
 * Serves the agent's repeated model calls from `cache`: the model node gets `policy`, and
 * the compiled graph the cache (the compile option `createAgent` does not pass on; a run's
 * `cache` config key is dropped before the loop sees it). False when there is no model node.
 */
export function cacheModelCalls(agent: unknown, cache: BaseCache, policy: CachePolicy): boolean {
  const graph = (agent as { graph?: { nodes?: Record<string, unknown>; cache?: BaseCache } })
    ?.graph;
  const node = graph?.nodes?.[MODEL_NODE] as { cachePolicy?: CachePolicy } | undefined;
  if (!graph || !node || typeof node !== "object") return false;
  node.cachePolicy = policy;
  graph.cache = cache;
  return true;
}

/**
 * The tool call a `tasks` stream chunk's task runs: its id and name, with its args when
 * the chunk has them, for a task of the tool node; undefined for any other chunk.
 */
export function toolCallOfTask(
  data: unknown,
):
  | { taskId: string; call: { id: string; name: string; args?: Record<string, unknown> } }
  | undefined {
  const task = data as { id?: unknown; name?: unknown; input?: { lg_tool_call?: any } } | undefined;
  const call = task?.input?.lg_tool_call;
  if (task?.name !== TOOLS_NODE || typeof task.id !== "string" || typeof call?.name !== "string")
    return undefined;
  return { taskId: task.id, call: { id: String(call.id), name: call.name, args: call.args } };
}
