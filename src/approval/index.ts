// The approval folder's boundary: the types of `interruptOn` and of an approval request, and
// the typed readers of a paused thread.
// Every name here is public API, re-exported by the package root.

export type {
  ApprovalDecisionType,
  ApprovalRequest,
  InterruptOn,
  InterruptOnConfig,
} from "./middleware.js";
export {
  type PausedThread,
  type PendingApproval,
  type PendingCall,
  pendingApprovals,
  readPendingApprovals,
} from "./pending.js";
