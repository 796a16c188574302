// Business tools that can be trusted (SPEC §10): structured results, idempotent writes,
// and a linter for the anti-patterns models trip on.
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
