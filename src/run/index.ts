// The run engine and its leaf modules: what the CLI, the interactive terminal and the viewer use.
// UI-free: events out, decisions in. Not yet a package entry (the CLI imports it directly).

export { type ApprovalMode, approvalPolicy, GATED_TOOLS } from "./approval-policy.js";
export {
  addAllowRule,
  configSchema,
  type DelveConfig,
  loadConfig,
  mergeConfigs,
  projectConfigPath,
  readConfigFile,
  userConfigPath,
} from "./config.js";
export {
  AlreadyDecidedError,
  InvalidDecisionError,
  openSession,
  type RunLimits,
  type RunSession,
  type SessionGraph,
  type SessionOptions,
  type ThreadConfig,
  UnknownThreadError,
} from "./engine.js";
export {
  type PendingCall,
  RUN_EVENT_TYPES,
  type RunDecision,
  type RunDecisionType,
  type RunEvent,
  type RunLimit,
  type RunQuestion,
  type RunResult,
  type RunStatus,
  type RunUsage,
} from "./events.js";
export { type ForkBase, type ForkOf, readForkBase, seedFork } from "./fork.js";
export { chooseModel, DEFAULT_MODELS } from "./model-choice.js";
export {
  costUsd,
  KNOWN_PRICES,
  loadPriceFile,
  type ModelPrice,
  modelPriceSchema,
  PRICES_CHECKED,
  parsePrices,
  priceFileSchema,
  resolvePrice,
  type TokenCounts,
} from "./prices.js";
export {
  type ApprovalRules,
  type CallDecision,
  type CompiledRules,
  compileRules,
  decideCall,
  narrowestRule,
  narrowestRules,
  type RuleCall,
  type RuleContext,
  type RuleVerdict,
} from "./rules.js";
export { ForkPointError } from "./run-errors.js";
export {
  COMPACT_NOW_KEEP,
  type CompactOptions,
  type CompactResult,
  type ContextPart,
  type ContextReport,
  type ConversationSize,
  type CostReport,
  compactNow,
  contextReport,
  costReport,
  listTurns,
  previewRewind,
  type RewindFile,
  type RewindOptions,
  type RewindPlan,
  type RewindResult,
  rewind,
  type ThreadDiff,
  type ToolsReport,
  type TurnPoint,
  threadDiff,
  toolsReport,
} from "./session-ops/index.js";
export { diffFiles, type FileDiff, type FileMap, filesByStep } from "./step-files.js";
export {
  type MessageView,
  readHistory,
  type Snapshot,
  type StepView,
  stepsOf,
} from "./thread-history.js";
export {
  type ThreadParent,
  type ThreadRow,
  type ThreadRunner,
  type ThreadSettings,
  threadsDbFile,
} from "./threads-db.js";
export {
  readUsage,
  summarizeUsage,
  USAGE_KEY,
  USAGE_MIDDLEWARE_NAME,
  type UsageRecord,
  type UsageSummary,
  type UsageTotals,
  usageMiddleware,
  usageStateSchema,
} from "./usage.js";
