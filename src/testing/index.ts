// The `delve/testing` entry: the scripted model and the backend conformance suite (which needs
// vitest). Every name here is public API.

export { ScriptedChatModel, type ScriptedStep, type ScriptedToolCall } from "../models/index.js";
export {
  type ConformanceOptions,
  type ConformanceSubject,
  runBackendConformance,
} from "./conformance.js";
