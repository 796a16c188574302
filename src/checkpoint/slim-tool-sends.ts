import { Send } from "@langchain/langgraph";

// langchain 1.5.14's createAgent sends each tool call as `Send("tools", { ...state,
// lg_tool_call })`, and LangGraph stores every Send twice per step: a full copy of the state
// per tool call, the largest part of a checkpoint. This shim (written against langchain
// 1.5.14 and @langchain/langgraph 1.7.3; test/checkpoint/slim-tool-sends.test.ts fails when
// either changes the internals it relies on) sends the tool call alone and lets the tools
// node read the state from its channels when it runs, which is the state the copy held.

const TOOLS_NODE = "tools";
const READ_KEY = "__pregel_read";
const SCRATCHPAD_KEY = "__pregel_scratchpad";
const APPLIED = Symbol.for("delve.slim_tool_sends");

/** Whether `slimToolSends` changed this agent (a test checks it on every build). */
export function hasSlimToolSends(agent: unknown): boolean {
  return Boolean((agent as any)?.graph?.[APPLIED]);
}

/**
 * Makes the agent's tool-call `Send`s carry only the tool call: the router's Sends are cut
 * down to `{ lg_tool_call }`, and the tools node, given such a Send, reads the current state
 * (the channels the router would have copied) before running the call. Returns the agent.
 * When langchain's agent graph no longer has the shape this relies on, it warns and leaves
 * the agent as it was (working, with larger checkpoints); `hasSlimToolSends` then says false.
 */
export function slimToolSends<T>(agent: T): T {
  const graph = (agent as any)?.graph;
  if (!graph || graph[APPLIED]) return agent;
  // `withConfig` builds a new agent graph: patch that one too.
  const withConfig = (agent as any).withConfig;
  if (typeof withConfig === "function") {
    (agent as any).withConfig = (config: unknown) => slimToolSends(withConfig.call(agent, config));
  }
  const toolNode = graph.nodes?.[TOOLS_NODE]?.bound;
  if (!toolNode) return agent; // no tools node: no tool Sends
  const branches = graph.builder?.branches;
  const keys = graph.streamChannels ?? graph.outputChannels;
  if (typeof toolNode.run !== "function" || !branches || !Array.isArray(keys)) {
    console.warn(
      "[delve] langchain's agent graph changed shape: tool calls keep a copy of the state in every checkpoint.",
    );
    return agent;
  }
  for (const byName of Object.values(branches) as Record<string, any>[]) {
    for (const branch of Object.values(byName)) wrapBranch(branch);
  }
  const run = toolNode.run.bind(toolNode);
  toolNode.run = (input: any, config: any) => run(hydrate(input, config, keys), config);
  graph[APPLIED] = true;
  return agent;
}

function wrapBranch(branch: any): void {
  const inner = branch?.path;
  if (!inner || typeof inner.invoke !== "function") return;
  const path = Object.create(inner);
  path.invoke = async (input: unknown, config: unknown) =>
    slimSends(await inner.invoke(input, config));
  branch.path = path;
}

function slimSends(result: unknown): unknown {
  const slim = (r: any) =>
    r instanceof Send && r.node === TOOLS_NODE && r.args && "lg_tool_call" in r.args
      ? new Send(TOOLS_NODE, { lg_tool_call: r.args.lg_tool_call })
      : r;
  return Array.isArray(result) ? result.map(slim) : slim(result);
}

function isSlim(input: any): boolean {
  if (!input || typeof input !== "object" || !("lg_tool_call" in input)) return false;
  return Object.keys(input).every((k) => k === "lg_tool_call" || k === "jumpTo");
}

function hydrate(input: any, config: any, keys: string[]): any {
  if (!isSlim(input)) return input;
  const read = config?.configurable?.[READ_KEY];
  if (typeof read !== "function") return input;
  const full = { ...read(keys, false), lg_tool_call: input.lg_tool_call };
  // Tools read `runtime.state` from the task input; give them the state, as before.
  const scratchpad = config.configurable[SCRATCHPAD_KEY];
  if (scratchpad && typeof scratchpad === "object") scratchpad.currentTaskInput = full;
  return full;
}
