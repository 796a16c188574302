// The agent folder's boundary: createDeepAgent, its options, the default middleware order and
// the tool-error layer. Every name here is public API, re-exported by the package root.

/**
 * LangChain's todo-list middleware, re-exported: it adds the `write_todos` tool, which Delve
 * leaves out by default. Pass it in `middleware` (or a profile's `extraMiddleware`).
 *
 * @example
 * createDeepAgent({ model, middleware: [todoListMiddleware()] }); // result.todos holds the list
 */
export { todoListMiddleware } from "langchain";
export { BUILTIN_TOOL_NAMES } from "./builtin-names.js";
export type { ContextSettings } from "./context-layers.js";
export {
  createDeepAgent,
  DEFAULT_RECURSION_LIMIT,
  type DeepAgent,
} from "./create-deep-agent.js";
export type { CreateDeepAgentOptions } from "./deep-agent-options.js";
export { MIDDLEWARE_ORDER, type MiddlewareSlot } from "./middleware-order.js";
export {
  type ToolErrorFormatter,
  type ToolErrorsOption,
  toolErrorsMiddleware,
} from "./tool-errors.js";
export type { AgentTool, ProviderToolDict, ToolDefinition } from "./user-tools.js";
