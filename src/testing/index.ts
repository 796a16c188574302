export type { ConformanceOptions, ConformanceSubject } from "./conformance.js";
export { runBackendConformance } from "./conformance.js";
export {
  type AgentRunLike,
  type DelveMatchers,
  delveMatchers,
  outcomeOf,
  type ReadOnlyOptions,
  registerDelveMatchers,
} from "./matchers.js";
export type {
  ScriptedReply,
  ScriptedStep,
  ScriptedToolCall,
  ScriptedUsage,
} from "./scripted-model.js";
export { ScriptedChatModel } from "./scripted-model.js";
