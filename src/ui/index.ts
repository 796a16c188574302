// The `delve ui` viewer: a JSON API and one page over a workspace's threads, or over an eval
// report. Not yet a package entry (the CLI imports it directly); documented in docs/ui.md.

export { evalApp, NotAnEvalReportError, readEvalReport } from "./eval-report.js";
export { guard, isLoopback, PAGE_CSP, servedHosts } from "./guard.js";
export { startUi, type UiOptions, type UiServer, uiApp } from "./server.js";
export { diffFiles, type FileDiff, type FileMap, filesByStep } from "./step-files.js";
export { type SurfaceBar, type SurfaceView, surfaceView } from "./surface-view.js";
export {
  type MessageView,
  runnerAlive,
  STOPPED_TEXT,
  type StepView,
  type SubagentRun,
  stepsOf,
  summaryOf,
  type ThreadSummary,
  type UsageView,
  type ViewStatus,
} from "./thread-view.js";
export { type UsageBreakdown, type UsageGroup, usageBreakdown } from "./usage-view.js";
