/**
 * LangChain's todo-list middleware, re-exported: it adds the `write_todos` tool, which Delve
 * leaves out by default. Pass it in `middleware` (or a profile's `extraMiddleware`).
 *
 * @example
 * createDeepAgent({ model, middleware: [todoListMiddleware()] }); // result.todos holds the list
 */
export { todoListMiddleware } from "langchain";
export type { ContextSettings } from "./agent/context-layers.js";
export {
  BUILTIN_TOOL_NAMES,
  type CreateDeepAgentOptions,
  createDeepAgent,
  DEFAULT_RECURSION_LIMIT,
  type DeepAgent,
} from "./agent/create-deep-agent.js";
export {
  type ToolErrorFormatter,
  type ToolErrorsOption,
  toolErrorsMiddleware,
} from "./agent/tool-errors.js";
export type { AgentTool, ProviderToolDict, ToolDefinition } from "./agent/user-tools.js";
export type {
  ApprovalDecisionType,
  ApprovalRequest,
  InterruptOn,
  InterruptOnConfig,
} from "./approval/middleware.js";
export {
  type BackendAccess,
  type BackendOperation,
  BackendWrapper,
  type GuardedCall,
} from "./backends/compose/backend-wrapper.js";
export {
  CompositeBackend,
  type CompositeBackendOptions,
  type PartialError,
  type PartialErrors,
} from "./backends/compose/composite.js";
export { FilesystemBackend, type FilesystemBackendOptions } from "./backends/disk/filesystem.js";
export { LocalShellBackend, type LocalShellBackendOptions } from "./backends/disk/local-shell.js";
export { InMemoryBackend, type InMemoryBackendOptions } from "./backends/file-map/in-memory.js";
export { StateBackend } from "./backends/file-map/state.js";
export { checkVirtualPath, type PathCheck } from "./backends/protocol/paths.js";
export type * from "./backends/protocol/protocol.js";
export { BaseSandbox } from "./backends/sandbox/base-sandbox.js";
export { SandboxBackend, type SandboxBackendOptions } from "./backends/sandbox/sandbox.js";
export {
  StoreBackend,
  type StoreBackendContext,
  type StoreBackendOptions,
  type StoreBackendUser,
} from "./backends/store/store.js";
export {
  type MemoryMiddlewareOptions,
  memoryMiddleware,
} from "./context/memory/middleware.js";
export { loadSkills } from "./context/skills/load-skills.js";
export { type SkillsMiddlewareOptions, skillsMiddleware } from "./context/skills/middleware.js";
export {
  MAX_SKILL_DESCRIPTION_LENGTH,
  MAX_SKILL_NAME_LENGTH,
  type SkillMetadata,
} from "./context/skills/skill-metadata.js";
export type { KeepPolicy, SummarizationOptions } from "./context/summarization/middleware.js";
export {
  ConfigurationError,
  DelveError,
  MissingProviderError,
  NotImplementedError,
} from "./errors/index.js";
export {
  FILESYSTEM_MIDDLEWARE_NAME,
  type FilesystemMiddlewareOptions,
  FS_TOOL_NAMES,
  type FsToolName,
  filesystemMiddleware,
} from "./filesystem/middleware.js";
export { LazyChatModel } from "./models/lazy-chat-model.js";
export type { DeleteDecision, SandboxTargets } from "./permissions/index.js";
export {
  canRead,
  decide,
  decideDelete,
  type FileOperation,
  literalRuleTargets,
  type PermissionDecision,
  type PermissionMode,
  type PermissionRule,
  validatePermissions,
} from "./permissions/index.js";
export {
  type GeneralPurposeSubagentConfig,
  getHarnessProfile,
  type HarnessProfile,
  registerHarnessProfile,
  resetHarnessProfiles,
  unregisterHarnessProfile,
} from "./profiles/index.js";
export {
  GENERAL_PURPOSE_SUBAGENT,
  SUBAGENT_MIDDLEWARE_NAME,
  subAgentMiddleware,
} from "./subagents/middleware.js";
export type { CompiledSubAgent, SubAgent } from "./subagents/specs.js";
export { estimateTokens } from "./surface/estimate-tokens.js";
export {
  type InspectSurfaceOptions,
  inspectSurface,
  type SurfaceReport,
  type SurfaceTool,
} from "./surface/inspect-surface.js";
export {
  ScriptedChatModel,
  type ScriptedStep,
  type ScriptedToolCall,
} from "./testing/scripted-model.js";
export * from "./toolkit/index.js";
export { toolText } from "./toolkit/tool-text.js";
