import { DelveError } from "./delve-error.js";

/**
 * Thrown at construction time when options are wrong: an unknown option key, a malformed
 * tool, a bad whitelist, a name conflict set to `"error"`. `code` names the rule broken;
 * `details` carries the facts (the offending key, the valid names) for programmatic use.
 *
 * @example
 * if (ConfigurationError.isInstance(e) && e.code === "UNKNOWN_OPTION") console.log(e.details.suggestion)
 */
export class ConfigurationError extends DelveError {
  readonly details: Record<string, unknown>;

  constructor(code: string, message: string, details: Record<string, unknown> = {}) {
    super(code, message);
    this.name = "ConfigurationError";
    this.details = details;
  }

  static override isInstance(value: unknown): value is ConfigurationError {
    return DelveError.isInstance(value) && value.name === "ConfigurationError";
  }
}
