import { getCurrentTaskInput, StateSchema } from "@langchain/langgraph";
import type { StackMiddleware } from "./langchain-types.js";

// Why: LangChain's model node parses the whole agent state through a zod schema it builds
// afresh for every `wrapModelCall` layer that declares a `stateSchema`, on every model call
// (100-500 µs a layer, more with every file in `files`). A layer marked here declares its
// channels on the agent instead, and its hook reads them with `hookState`.
const hoistable = new WeakSet<object>();

/**
 * Marks one of Delve's middleware whose `wrapModelCall` reads state channels other than
 * `messages` only through `hookState` (or none): `compileStack` then declares its channels
 * on the agent's own state schema, so the model node does not re-parse the state per call.
 * Used alone with LangChain's `createAgent`, the middleware works unchanged.
 */
export function withAgentLevelState<T extends object>(middleware: T): T {
  hoistable.add(middleware);
  return middleware;
}

/**
 * The state a `wrapModelCall` hook runs on: the model node's whole input (every channel),
 * or, outside a running graph, the request's own `state`.
 */
export function hookState(request: { state?: unknown }): Record<string, unknown> {
  try {
    const input = getCurrentTaskInput();
    if (input && typeof input === "object") return input as Record<string, unknown>;
  } catch {
    // Not inside a graph task (a hook called directly): the request's state is all there is.
  }
  return (request.state ?? {}) as Record<string, unknown>;
}

/**
 * The stack as `createAgent` gets it: each marked middleware with a `wrapModelCall` hook
 * and a `StateSchema` is replaced by a copy without the schema, whose fields are returned
 * for the agent's schema. A field an earlier middleware already declares stays there (the
 * first declaration wins in `createAgent`, as before).
 */
export function hoistHookStates(middleware: readonly StackMiddleware[]): {
  middleware: StackMiddleware[];
  fields: Record<string, unknown>;
} {
  const fields: Record<string, unknown> = {};
  const declared = new Set<string>();
  const list = middleware.map((m) => {
    const schema = (m as { stateSchema?: unknown }).stateSchema;
    const own = StateSchema.isInstance(schema) ? (schema as StateSchema<any>).fields : undefined;
    if (!own || !hoistable.has(m) || typeof m.wrapModelCall !== "function") {
      for (const key of Object.keys(own ?? shapeOf(schema))) declared.add(key);
      return m;
    }
    for (const [key, field] of Object.entries(own)) {
      if (declared.has(key)) continue;
      declared.add(key);
      fields[key] = field;
    }
    return { ...m, stateSchema: undefined } as StackMiddleware;
  });
  return { middleware: list, fields };
}

function shapeOf(schema: unknown): Record<string, unknown> {
  const shape = (schema as { shape?: unknown } | undefined)?.shape;
  return shape && typeof shape === "object" ? (shape as Record<string, unknown>) : {};
}
