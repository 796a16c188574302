// The subagents folder's boundary: the subagent middleware (the `task` tool) and subagent specs.
// Every name here is public API, re-exported by the package root.

export type { SubagentMode } from "./fork.js";
export {
  GENERAL_PURPOSE_SUBAGENT,
  SUBAGENT_MIDDLEWARE_NAME,
  subAgentMiddleware,
} from "./middleware.js";
export type { CompiledSubAgent, SubAgent } from "./specs.js";
