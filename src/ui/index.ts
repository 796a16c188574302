// The `delve ui` viewer: a JSON API and one page over a workspace's threads. Not yet a
// package entry (the CLI imports it directly); documented in docs/ui.md.

export { guard, isLoopback, PAGE_CSP, servedHosts } from "./guard.js";
export { startUi, type UiOptions, type UiServer, uiApp } from "./server.js";
export { diffFiles, type FileDiff, type FileMap, filesByStep } from "./step-files.js";
export {
  type MessageView,
  type StepView,
  stepsOf,
  summaryOf,
  type ThreadSummary,
  type UsageView,
  type ViewStatus,
} from "./thread-view.js";
