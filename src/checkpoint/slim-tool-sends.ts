import { isDeepStrictEqual } from "node:util";
import { Send } from "@langchain/langgraph";
import { TOOLS_NODE } from "../langchain-seam/agent-graph.js";
import {
  agentGraph,
  hasToolRouters,
  reapplyOnWithConfig,
  wrapToolNodeInput,
  wrapToolRouters,
} from "../langchain-seam/agent-graph-sends.js";
import { leanMiddlewareWrites } from "../langchain-seam/middleware-node-writes.js";

// langchain 1.5.14's createAgent sends each tool call as `Send("tools", { ...state,
// lg_tool_call })`, and LangGraph stores every Send twice per step: a full copy of the state
// per tool call, the largest part of a checkpoint. This shim (the graph patching is in
// src/langchain-seam/agent-graph-sends.ts, whose test names what it relies on) sends the tool
// call alone and lets the tools node read the state from its channels when it runs, which is
// the state the copy held. A call whose arguments are in the last AI message is sent by id
// (arguments can be large).

const APPLIED = Symbol.for("delve.slim_tool_sends");
// Marks a Send whose call is named by id only (a string key: Sends are saved as JSON).
const BY_ID = "delve_call_by_id";
// Stands for an id that two calls of the message share.
const DUPLICATE = Symbol("duplicate tool call id");

/** Whether `slimToolSends` changed this agent (a test checks it on every build). */
export function hasSlimToolSends(agent: unknown): boolean {
  return agentGraph(agent)?.[APPLIED] === true;
}

/** `DELVE_SLIM_TOOL_SENDS=off`: tool Sends carry the state again (the reader stays on). */
const sendsOff = () => process.env.DELVE_SLIM_TOOL_SENDS?.trim().toLowerCase() === "off";

/**
 * Makes the agent's tool-call `Send`s carry only the tool call: the router's Sends are cut
 * down to `{ lg_tool_call }`, and the tools node, given such a Send, reads the current state
 * (the channels the router would have copied) before running the call. Returns the agent.
 * The two parts stand apart, so a thread paused with slim Sends resumes whatever the router
 * does at resume time: the tools node reads slim Sends whenever it can be reached, also when
 * the router's shape changed (then it warns and sends the state, as langchain does) or
 * `DELVE_SLIM_TOOL_SENDS=off` turns the slimming off. `hasSlimToolSends` says whether the
 * router sends slim Sends.
 */
export function slimToolSends<T>(agent: T): T {
  const graph = agentGraph(agent);
  if (!graph || graph[APPLIED] !== undefined) return agent;
  // Middleware hooks write back only what they changed (not the whole state each time).
  leanMiddlewareWrites(graph);
  // `withConfig` builds a new agent graph: patch that one too.
  reapplyOnWithConfig(agent, slimToolSends);
  graph[APPLIED] = false;
  const reads = wrapToolNodeInput(agent, hydrate);
  if (reads === "no tool node") return agent; // no tool Sends
  if (reads !== "wrapped" || !hasToolRouters(agent)) {
    console.warn(
      "[delve] langchain's agent graph changed shape: tool calls keep a copy of the state in every checkpoint.",
    );
    return agent;
  }
  if (sendsOff()) return agent;
  wrapToolRouters(agent, slimSends, routerState);
  graph[APPLIED] = true;
  return agent;
}

// What the routers read: a Send made from it copies no files; a Send that needs the whole
// state (a jump) gets it back in slimSends.
function routerState(state: any): any {
  if (!state || typeof state !== "object") return state;
  return { messages: state.messages, jumpTo: state.jumpTo };
}

// The router takes each call from the last AI message in the state, so a Send can name the
// call by id and the tools node finds its arguments there (the same message, one step later).
// A call that differs from the message's is sent whole.
function slimSends(result: unknown, state: any): unknown {
  const inMessages = new Map<string, any>();
  const messages: any[] = Array.isArray(state?.messages) ? state.messages : [];
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    if (Array.isArray(messages[i]?.tool_calls) && messages[i].tool_calls.length) {
      for (const call of messages[i].tool_calls) {
        if (!call?.id) continue;
        // A model may reuse an id within one message: such calls cannot be named by id.
        inMessages.set(call.id, inMessages.has(call.id) ? DUPLICATE : call);
      }
      break;
    }
  }
  const slim = (r: any) => {
    if (!(r instanceof Send)) return r;
    // A jump (to the tools or the model node) carries the state: the whole of it.
    if (r.node !== TOOLS_NODE || !r.args || !("lg_tool_call" in r.args)) {
      return new Send(r.node, { ...state, ...r.args });
    }
    const call = r.args.lg_tool_call;
    const known = call?.id ? inMessages.get(call.id) : undefined;
    if (
      known &&
      known !== DUPLICATE &&
      known.name === call.name &&
      isDeepStrictEqual(known.args, call.args)
    ) {
      return new Send(TOOLS_NODE, {
        lg_tool_call: { id: call.id, name: call.name },
        [BY_ID]: true,
      });
    }
    return new Send(TOOLS_NODE, { lg_tool_call: call });
  };
  return Array.isArray(result) ? result.map(slim) : slim(result);
}

function isSlim(input: any): boolean {
  if (!input || typeof input !== "object" || !("lg_tool_call" in input)) return false;
  return Object.keys(input).every((k) => k === "lg_tool_call" || k === "jumpTo" || k === BY_ID);
}

function callById(messages: unknown, id: string): unknown {
  const list: any[] = Array.isArray(messages) ? messages : [];
  for (let i = list.length - 1; i >= 0; i -= 1) {
    const call = list[i]?.tool_calls?.find?.((c: any) => c?.id === id);
    if (call) return call;
  }
  throw new Error(`[delve] tool call ${id} is not in the thread's messages; it cannot run.`);
}

function hydrate(input: any, readState: () => Record<string, unknown> | undefined): any {
  if (!isSlim(input)) return input;
  const state = readState();
  if (!state) return input;
  const call = input[BY_ID] ? callById(state.messages, input.lg_tool_call.id) : input.lg_tool_call;
  // Tools read `runtime.state` from the task input; the seam gives them this state, as before.
  return { ...state, lg_tool_call: call };
}
