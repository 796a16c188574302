export type { ConformanceOptions, ConformanceSubject } from "./conformance.js";
export { runBackendConformance } from "./conformance.js";
export type { ScriptedStep, ScriptedToolCall } from "./scripted-model.js";
export { ScriptedChatModel } from "./scripted-model.js";
