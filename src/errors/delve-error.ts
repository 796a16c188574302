const MARKER = Symbol.for("delve.error");

/**
 * Base class of every developer-facing error Delve throws. Each error carries a stable
 * string `code` so callers can branch without string-matching messages, and
 * `DelveError.isInstance(e)` works even when two copies of the package are installed.
 *
 * @example
 * try { createDeepAgent({ modle: "openai:gpt-5.5" } as never) }
 * catch (e) { if (DelveError.isInstance(e)) console.log(e.code) } // "UNKNOWN_OPTION"
 */
export class DelveError extends Error {
  readonly [MARKER] = true;
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DelveError";
    this.code = code;
  }

  /** True for any Delve error, from this copy of the package or another one. */
  static isInstance(value: unknown): value is DelveError {
    return typeof value === "object" && value !== null && (value as any)[MARKER] === true;
  }
}
