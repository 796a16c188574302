// The toolkit folder's boundary: business tools that can be trusted (structured results,
// idempotent writes, the text a tool shows the model, a linter for the anti-patterns models
// trip on). Every name here is public API, re-exported by the package root.
export { type IdempotentOptions, idempotent } from "./idempotent.js";
export {
  DEFAULT_BUDGET_CHARS,
  LINT_RULES,
  type LintFinding,
  type LintRuleName,
  type LintToolsOptions,
  lintTools,
} from "./lint-tools.js";
export {
  FAILURE_CODE_PATTERN,
  FAILURE_STATUS_MIDDLEWARE_NAME,
  type Failure,
  type FailureSpec,
  fail,
  failureStatusMiddleware,
  isFailure,
  markFailures,
  ok,
  resultObjectOf,
  type Success,
} from "./result.js";
export { toolText } from "./tool-text.js";
