// delve/evals: agent behaviour tests. Every name exported here is public API.

export type { CassetteFile, CassetteStep, RequestParts } from "./cassette.js";
export {
  CASSETTE_DRIFT_ERROR_CODES,
  CassetteDriftError,
  type CassetteDriftErrorCode,
} from "./cassette-drift-error.js";
export {
  compareReports,
  type FlippedTask,
  type MovedBudget,
  type ReportComparison,
} from "./compare.js";
export { defineTaskSet, isTaskSet } from "./define-task-set.js";
export {
  answerMatches,
  noFalseSuccess,
  satisfies,
  type TextPattern,
  wroteFile,
} from "./expect-answer.js";
export {
  type ArgsMatcher,
  calledInOrder,
  calledTool,
  maxModelCalls,
  maxTokens,
  maxToolErrors,
  noMutationBeforeApproval,
  notCalledTool,
  readOnly,
} from "./expect-tools.js";
export { renderHtmlReport } from "./html-report.js";
export { toolMutates } from "./mutation.js";
export type {
  EvalReport,
  ExpectationVerdict,
  RunReport,
  TaskReport,
} from "./report.js";
export {
  type EvalProgress,
  type ModelOption,
  type RunTaskSetOptions,
  runTaskSet,
} from "./run-task-set.js";
export type { PriceTable } from "./trajectory.js";
export type {
  AgentContext,
  AgentFactory,
  AnswerPolicy,
  ApprovalEvent,
  ApprovalPolicy,
  CheckContext,
  EvalTask,
  Expectation,
  ExpectationResult,
  InvokableAgent,
  ModelTurn,
  QuestionEvent,
  TaskInput,
  TaskOutcome,
  TaskSet,
  TokenUsage,
  ToolResult,
  TrajectoryEvent,
} from "./types.js";
