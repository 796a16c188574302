export type { ConformanceOptions, ConformanceSubject } from "./conformance.js";
export { runBackendConformance } from "./conformance.js";
export type {
  ScriptedReply,
  ScriptedStep,
  ScriptedToolCall,
  ScriptedUsage,
} from "./scripted-model.js";
export { ScriptedChatModel } from "./scripted-model.js";
