// Session operations behind the interactive terminal's slash commands and their headless
// `delve threads` / `delve context` forms: UI-free, each over one open RunSession.

export {
  COMPACT_NOW_KEEP,
  type CompactOptions,
  type CompactResult,
  type ConversationSize,
  compactNow,
} from "./compact-now.js";
export { type ContextPart, type ContextReport, contextReport } from "./context-report.js";
export { type CostReport, costReport } from "./cost-report.js";
export {
  previewRewind,
  type RewindFile,
  type RewindOptions,
  type RewindPlan,
  type RewindResult,
  rewind,
} from "./rewind.js";
export { type ThreadDiff, threadDiff } from "./thread-diff.js";
export { type ToolsReport, toolsReport } from "./tools-report.js";
export { listTurns, type TurnPoint } from "./turns.js";
