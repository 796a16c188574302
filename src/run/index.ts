// The run engine's boundary: what the CLI, the interactive terminal and the viewer use.
// UI-free: events out, decisions in. Not yet a package entry (the CLI imports it directly).

export { type ApprovalMode, approvalPolicy, GATED_TOOLS } from "./approval-policy.js";
export {
  AlreadyDecidedError,
  openSession,
  type RunLimits,
  type RunSession,
  type SessionOptions,
  UnknownThreadError,
} from "./engine.js";
export {
  type PendingCall,
  RUN_EVENT_TYPES,
  type RunDecision,
  type RunDecisionType,
  type RunEvent,
  type RunLimit,
  type RunResult,
  type RunStatus,
  type UsageTotals,
} from "./events.js";
export { type ThreadRow, type ThreadSettings, threadsDbFile } from "./threads-db.js";
