import { DelveError, hasErrorMarker } from "../errors/delve-error.js";

const MARKER = Symbol.for("delve.error.CassetteDriftError");

/** Every `code` a `CassetteDriftError` can carry. */
export const CASSETTE_DRIFT_ERROR_CODES = ["REQUEST_CHANGED", "NOT_RECORDED"] as const;

/** The code of a `CassetteDriftError` (one of `CASSETTE_DRIFT_ERROR_CODES`). */
export type CassetteDriftErrorCode = (typeof CASSETTE_DRIFT_ERROR_CODES)[number];

/**
 * Thrown by a replay when a model request no longer matches the one the cassette recorded
 * (a tool definition, the prompt or an earlier answer changed), or when the cassette has no
 * recording for a task. The message names the task and the step; `details` carries them.
 *
 * @example
 * if (CassetteDriftError.isInstance(e)) console.log(e.details.task, e.details.step)
 */
export class CassetteDriftError extends DelveError<CassetteDriftErrorCode> {
  /** The codes this class can carry. */
  static readonly codes: readonly CassetteDriftErrorCode[] = CASSETTE_DRIFT_ERROR_CODES;
  readonly [MARKER] = true;
  readonly details: { task: string; step: number; change: string };

  constructor(
    code: CassetteDriftErrorCode,
    message: string,
    details: { task: string; step: number; change: string },
  ) {
    super(code, message);
    this.name = "CassetteDriftError";
    this.details = details;
  }

  /** True for a `CassetteDriftError` (or subclass), from this copy of the package or another. */
  static override isInstance(value: unknown): value is CassetteDriftError {
    return hasErrorMarker(value, MARKER);
  }
}
