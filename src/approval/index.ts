// The approval folder's boundary: the types of `interruptOn` and of an approval request.
// Every name here is public API, re-exported by the package root.

export type {
  ApprovalDecisionType,
  ApprovalRequest,
  InterruptOn,
  InterruptOnConfig,
} from "./middleware.js";
