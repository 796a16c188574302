import { DelveError } from "../errors/delve-error.js";

/**
 * Thrown by a replay when a model request no longer matches the one the cassette recorded
 * (a tool definition, the prompt or an earlier answer changed), or when the cassette has no
 * recording for a task. The message names the task and the step; `details` carries them.
 *
 * @example
 * if (CassetteDriftError.isInstance(e)) console.log(e.details.task, e.details.step)
 */
export class CassetteDriftError extends DelveError {
  readonly details: { task: string; step: number; change: string };

  constructor(
    code: "REQUEST_CHANGED" | "NOT_RECORDED",
    message: string,
    details: { task: string; step: number; change: string },
  ) {
    super(code, message);
    this.name = "CassetteDriftError";
    this.details = details;
  }

  static override isInstance(value: unknown): value is CassetteDriftError {
    return DelveError.isInstance(value) && value.name === "CassetteDriftError";
  }
}
