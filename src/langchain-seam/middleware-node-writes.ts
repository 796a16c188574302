// Relies on: langchain's agent graph runs each middleware hook in a node whose `bound` is a
// `MiddlewareNode` (by class name, up the prototype chain) with an `invoke(state, config)`;
// when a hook returns an update, that node returns `{ ...state, ...update }`, so every state
// key the hook did not touch is written back as it was read (the whole message list, on
// every resume of an approval). Checked against: langchain 1.5.14, @langchain/core 1.4.0,
// @langchain/langgraph 1.7.3. test/langchain-seam/middleware-node-writes.test.ts fails,
// naming the assumption, when either changes.
import { isCommand } from "@langchain/langgraph";

const LEAN = Symbol.for("delve.lean_middleware_writes");

/** Whether `bound` is one of langchain's middleware hook nodes. */
export function isMiddlewareNode(bound: unknown): boolean {
  for (let p = bound; p; p = Object.getPrototypeOf(p)) {
    if ((p as any).constructor?.name === "MiddlewareNode") return true;
  }
  return false;
}

/**
 * Makes the compiled agent graph's middleware nodes write only what their hook returned: a
 * key whose value is the very object the node read is left out of the node's output (it is
 * unchanged, and writing it again would store it again in the checkpoint). In place; returns
 * how many nodes it changed (0 when the graph no longer has that shape).
 */
export function leanMiddlewareWrites(graph: any): number {
  if (!graph?.nodes || typeof graph.nodes !== "object") return 0;
  if (graph[LEAN] !== undefined) return graph[LEAN];
  let changed = 0;
  for (const node of Object.values(graph.nodes) as any[]) {
    const bound = node?.bound;
    if (!isMiddlewareNode(bound) || typeof bound.invoke !== "function") continue;
    const invoke = bound.invoke.bind(bound);
    bound.invoke = async (input: unknown, config: unknown) =>
      withoutUnchanged(await invoke(input, config), input);
    changed += 1;
  }
  graph[LEAN] = changed;
  return changed;
}

/** `output` without the keys whose value is the same object `input` holds under that key. */
export function withoutUnchanged(output: unknown, input: unknown): unknown {
  if (!output || typeof output !== "object" || Array.isArray(output) || isCommand(output)) {
    return output;
  }
  if (!input || typeof input !== "object") return output;
  const read = input as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(output)) {
    const same = Object.hasOwn(read, key) && read[key] === value && typeof value === "object";
    if (!same || value === null) out[key] = value;
  }
  return out;
}
