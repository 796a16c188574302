// The `delve/testing` entry: the scripted model, the backend conformance suite and the vitest
// matchers (vitest is loaded only when they are used). Every name here is public API.

export {
  HumanChatModel,
  type HumanChatModelOptions,
  type HumanReply,
  type HumanRequest,
  type HumanRequestMessage,
  type HumanToolDefinition,
  ScriptedChatModel,
  type ScriptedReply,
  type ScriptedStep,
  type ScriptedToolCall,
  type ScriptedUsage,
} from "../models/index.js";
export {
  type ConformanceOptions,
  type ConformanceSubject,
  runBackendConformance,
} from "./conformance.js";
export {
  type AgentRunLike,
  type DelveMatchers,
  delveMatchers,
  outcomeOf,
  type ReadOnlyOptions,
  registerDelveMatchers,
} from "./matchers.js";
