// The viewer reads threads through the run engine's history reader (src/run/thread-history.ts),
// which the interactive terminal's rewind and diff share.
export {
  firstLine,
  type MessageView,
  messageView,
  RUNNING_GRACE_MS,
  readHistory,
  type Snapshot,
  type StepView,
  stepsOf,
  summaryOf,
  type ThreadSummary,
  type UsageView,
  usageView,
  type ViewStatus,
} from "../run/thread-history.js";
