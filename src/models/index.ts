// The models folder's boundary: the lazy "provider:model" wrapper and the scripted model for
// tests. Every name here is public API, re-exported by the package root (and `delve/testing`).

export { HumanChatModel, type HumanChatModelOptions } from "./human-chat-model.js";
export type {
  HumanReply,
  HumanRequest,
  HumanRequestMessage,
  HumanToolDefinition,
} from "./human-protocol.js";
export { LazyChatModel } from "./lazy-chat-model.js";
export {
  ScriptedChatModel,
  type ScriptedReply,
  type ScriptedStep,
  type ScriptedToolCall,
  type ScriptedUsage,
} from "./scripted-model.js";
