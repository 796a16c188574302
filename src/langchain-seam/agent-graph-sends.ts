// Relies on: langchain's `createAgent` routes tool calls with the compiled graph builder's
// branches (`graph.builder.branches[node][name].path`, a Runnable whose `invoke(state,
// config)` returns `Send("tools", { ...state, lg_tool_call })`s), and the compiled graph
// calls those `path` objects at run time, so replacing one after compile takes effect; the
// tool node's ToolNode (`graph.nodes.tools.bound`) is run through its instance's
// `run(input, config)`; the state channels are `graph.streamChannels` (else
// `outputChannels`); inside the task, `configurable.__pregel_read(keys, false)` reads them as
// committed and `configurable.__pregel_scratchpad.currentTaskInput` is what tools see as
// `runtime.state`; `agent.withConfig` builds a new agent with a new graph. Not public API.
// Checked against: langchain 1.5.14, @langchain/core 1.4.0, @langchain/langgraph 1.7.3.
import { TOOLS_NODE } from "./agent-graph.js";

const READ_KEY = "__pregel_read";
const SCRATCHPAD_KEY = "__pregel_scratchpad";

/** A compiled agent's graph (the object LangGraph runs), or undefined for anything else. */
export function agentGraph(agent: unknown): Record<PropertyKey, any> | undefined {
  const graph = (agent as { graph?: unknown } | undefined)?.graph;
  return graph && typeof graph === "object" ? (graph as Record<PropertyKey, any>) : undefined;
}

/** Makes `agent.withConfig(...)` return its new agent passed through `apply` too. */
export function reapplyOnWithConfig<T>(agent: T, apply: (agent: T) => T): void {
  const a = agent as { withConfig?: (config: unknown) => T };
  const withConfig = a.withConfig;
  if (typeof withConfig === "function") {
    a.withConfig = (config: unknown) => apply(withConfig.call(agent, config));
  }
}

/**
 * Maps each input of the agent's tool node before it runs: `map` gets the input and a reader
 * of the current state (undefined outside a Pregel task) and returns the input to run; a new
 * input is also what tools see as `runtime.state`. Says whether the node was wrapped, or
 * why not: the agent has no tool node, or langchain's graph changed shape.
 */
export function wrapToolNodeInput(
  agent: unknown,
  map: (input: any, readState: () => Record<string, unknown> | undefined) => unknown,
): "wrapped" | "no tool node" | "changed shape" {
  const graph = agentGraph(agent);
  const toolNode = graph?.nodes?.[TOOLS_NODE]?.bound;
  if (!toolNode) return "no tool node";
  const keys = graph!.streamChannels ?? graph!.outputChannels;
  if (typeof toolNode.run !== "function" || !Array.isArray(keys)) return "changed shape";
  const run = toolNode.run.bind(toolNode);
  toolNode.run = (input: unknown, config: any) => {
    const readState = () => {
      const read = config?.configurable?.[READ_KEY];
      return typeof read === "function" ? read(keys, false) : undefined;
    };
    const mapped = map(input, readState);
    const scratchpad = config?.configurable?.[SCRATCHPAD_KEY];
    if (mapped !== input && scratchpad && typeof scratchpad === "object") {
      scratchpad.currentTaskInput = mapped;
    }
    return run(mapped, config);
  };
  return "wrapped";
}

/** Whether the agent's graph builder has the branches that route tool calls. */
export function hasToolRouters(agent: unknown): boolean {
  const branches = agentGraph(agent)?.builder?.branches;
  return Boolean(branches && typeof branches === "object");
}

/**
 * Passes what each of the agent's routing branches returns (a Send, a node name, or a list
 * of them) through `map`, with the state the branch was given. With `narrow`, the branch
 * itself is given `narrow(state)`: langchain's routers read only `messages` and `jumpTo`,
 * and a `Send` deep-copies its arguments (`{ ...state }`: every file, every step) when it
 * is made. False when the graph has no branches where langchain keeps them.
 */
export function wrapToolRouters(
  agent: unknown,
  map: (result: unknown, state: any) => unknown,
  narrow?: (state: any) => unknown,
): boolean {
  if (!hasToolRouters(agent)) return false;
  const branches = agentGraph(agent)!.builder.branches as Record<string, Record<string, any>>;
  for (const byName of Object.values(branches)) {
    for (const branch of Object.values(byName)) {
      const inner = branch?.path;
      if (!inner || typeof inner.invoke !== "function") continue;
      const path = Object.create(inner);
      path.invoke = async (state: unknown, config: unknown) =>
        map(await inner.invoke(narrow ? narrow(state) : state, config), state);
      branch.path = path;
    }
  }
  return true;
}
