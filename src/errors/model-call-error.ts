import { DelveError, hasErrorMarker } from "./delve-error.js";

const MARKER = Symbol.for("delve.error.ModelCallError");

/** Every `code` a `ModelCallError` can carry. */
export const MODEL_CALL_ERROR_CODES = ["MODEL_CALL_FAILED", "MODEL_CALL_TIMEOUT"] as const;

/** The code of a `ModelCallError` (one of `MODEL_CALL_ERROR_CODES`). */
export type ModelCallErrorCode = (typeof MODEL_CALL_ERROR_CODES)[number];

/** What is known of a failed model call. */
export interface ModelCallFailure {
  /** The provider, as its LangChain class names itself (`openai`, `anthropic`, ...). */
  provider: string;
  /** The HTTP status of the last attempt; undefined for a dropped connection or a timeout. */
  status?: number;
  /** The provider's request id of the last attempt, when it sent one. */
  requestId?: string;
  /** Attempts made, the first call included. */
  attempts: number;
}

/**
 * Thrown by `invoke` and `stream` when a model call still fails after its retries (429,
 * 5xx, a dropped connection, no answer within the attempt timeout). The run stops there;
 * the thread keeps its last checkpoint, so invoking it again (`invoke(null, thread)`)
 * resumes. `code` is `MODEL_CALL_TIMEOUT` when the last attempt timed out.
 *
 * @example
 * try { await agent.invoke(input, thread) }
 * catch (e) { if (ModelCallError.isInstance(e)) console.log(e.provider, e.status, e.requestId) }
 */
export class ModelCallError extends DelveError<ModelCallErrorCode> {
  /** The codes this class can carry. */
  static readonly codes: readonly ModelCallErrorCode[] = MODEL_CALL_ERROR_CODES;
  readonly [MARKER] = true;
  readonly provider: string;
  readonly status: number | undefined;
  readonly requestId: string | undefined;
  readonly attempts: number;

  constructor(code: ModelCallErrorCode, failure: ModelCallFailure, cause?: unknown) {
    const detail = (cause as { message?: unknown } | undefined)?.message;
    const what = failure.status !== undefined ? `status ${failure.status}` : "no response";
    const id = failure.requestId ? `, request id ${failure.requestId}` : "";
    super(
      code,
      `The ${failure.provider} model call failed after ${failure.attempts} attempt${failure.attempts === 1 ? "" : "s"} (${what}${id}): ${typeof detail === "string" ? detail : String(cause)}. The thread is kept: run it again to resume from its last checkpoint.`,
      { cause },
    );
    this.name = "ModelCallError";
    this.provider = failure.provider;
    this.status = failure.status;
    this.requestId = failure.requestId;
    this.attempts = failure.attempts;
  }

  /** True for a `ModelCallError` (or subclass), from this copy of the package or another. */
  static override isInstance(value: unknown): value is ModelCallError {
    return hasErrorMarker(value, MARKER);
  }
}
