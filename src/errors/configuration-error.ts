import { DelveError, hasErrorMarker } from "./delve-error.js";

const MARKER = Symbol.for("delve.error.ConfigurationError");

/** Every `code` a `ConfigurationError` can carry: the rule the options broke. */
export const CONFIGURATION_ERROR_CODES = [
  "BACKEND_FACTORY",
  "CASSETTE_UNREADABLE",
  "CHECKPOINTER_REQUIRED",
  "DUPLICATE_TOOL",
  "INVALID_BACKEND",
  "INVALID_CONFIG",
  "INVALID_EVAL_OPTIONS",
  "INVALID_FS_TOOLS",
  "INVALID_GLOB",
  "INVALID_IDEMPOTENCY_KEY",
  "INVALID_INTERRUPT_ON",
  "INVALID_MCP_SERVER",
  "INVALID_MIDDLEWARE",
  "INVALID_MODEL",
  "INVALID_NAMESPACE",
  "INVALID_OPTION",
  "INVALID_OPTIONS",
  "INVALID_PATH",
  "INVALID_PERMISSION",
  "INVALID_PRICES",
  "INVALID_PROFILE",
  "INVALID_PROFILE_KEY",
  "INVALID_RESULT",
  "INVALID_ROUTE",
  "INVALID_RULE",
  "INVALID_ROUTES",
  "INVALID_STORE",
  "INVALID_SUBAGENT",
  "INVALID_TASK_SET",
  "INVALID_TOOL",
  "INVALID_TOOL_ERRORS",
  "MCP_TOOL_CONFLICT",
  "MCP_TOOL_NAME_TOO_LONG",
  "MCP_TOOL_SHADOWS_BUILTIN",
  "MISSING_DEPENDENCY",
  "MISSING_NAMESPACE",
  "MISSING_OPTION",
  "MISSING_PATH",
  "NOT_A_DEEP_AGENT",
  "NOT_A_RUN",
  "NO_MODEL",
  "READ_FILE_REQUIRED",
  "REQUIRED_MIDDLEWARE",
  "SANDBOX_UNAVAILABLE",
  "SUBAGENT_DEPTH",
  "SUBAGENT_NO_MESSAGES",
  "SURFACE_NOT_RECORDED",
  "TOOL_NAME_CONFLICT",
  "UNENFORCEABLE_PERMISSIONS",
  "UNENFORCEABLE_RULE",
  "UNKNOWN_CONTEXT_WINDOW",
  "UNKNOWN_DEFERRED_TOOL",
  "UNKNOWN_FS_TOOL",
  "UNKNOWN_INTERRUPT_TOOL",
  "UNKNOWN_LINT_RULE",
  "UNKNOWN_MCP_TOOL",
  "UNKNOWN_MIDDLEWARE",
  "UNKNOWN_MODEL_PROVIDER",
  "UNKNOWN_OPTION",
  "UNKNOWN_SAVER",
  "VITEST_MISSING",
] as const;

/** The rule a `ConfigurationError` reports (one of `CONFIGURATION_ERROR_CODES`). */
export type ConfigurationErrorCode = (typeof CONFIGURATION_ERROR_CODES)[number];

/**
 * Thrown at construction time when options are wrong: an unknown option key, a malformed
 * tool, a bad whitelist, a name conflict set to `"error"`. `code` names the rule broken;
 * `details` carries the facts (the offending key, the valid names) for programmatic use.
 *
 * @example
 * if (ConfigurationError.isInstance(e) && e.code === "UNKNOWN_OPTION") console.log(e.details.suggestion)
 */
export class ConfigurationError extends DelveError<ConfigurationErrorCode> {
  /** The codes this class can carry. */
  static readonly codes: readonly ConfigurationErrorCode[] = CONFIGURATION_ERROR_CODES;
  readonly [MARKER] = true;
  readonly details: Record<string, unknown>;

  constructor(
    code: ConfigurationErrorCode,
    message: string,
    details: Record<string, unknown> = {},
  ) {
    super(code, message);
    this.name = "ConfigurationError";
    this.details = details;
  }

  /** True for a `ConfigurationError` (or subclass), from this copy of the package or another. */
  static override isInstance(value: unknown): value is ConfigurationError {
    return hasErrorMarker(value, MARKER);
  }
}
