const MARKER = Symbol.for("delve.error");

/**
 * True when `value` carries `marker` (a `Symbol.for` key, shared by every copy of the
 * package). Each error class checks its own marker, so `isInstance` needs no `instanceof`.
 */
export function hasErrorMarker(value: unknown, marker: symbol): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as Record<symbol, unknown>)[marker] === true
  );
}

/**
 * Base class of every developer-facing error Delve throws. Each error carries a stable
 * string `code` so callers can branch without string-matching messages, and
 * `DelveError.isInstance(e)` works even when two copies of the package are installed.
 * Delve never throws a bare `DelveError`: each subclass narrows `code` to its own union
 * (`ConfigurationErrorCode`, ...), and its own `isInstance` is true only for that class.
 *
 * @example
 * try { createDeepAgent({ modle: "openai:gpt-5.5" } as never) }
 * catch (e) { if (DelveError.isInstance(e)) console.log(e.code) } // "UNKNOWN_OPTION"
 */
export class DelveError<Code extends string = string> extends Error {
  readonly [MARKER] = true;
  readonly code: Code;

  constructor(code: Code, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DelveError";
    this.code = code;
  }

  /** True for any Delve error, from this copy of the package or another one. */
  static isInstance(value: unknown): value is DelveError {
    return hasErrorMarker(value, MARKER);
  }
}
