import { DelveError, hasErrorMarker } from "./delve-error.js";

const MARKER = Symbol.for("delve.error.NotImplementedError");

/** Every `code` a `NotImplementedError` can carry. */
export const NOT_IMPLEMENTED_ERROR_CODES = ["NOT_IMPLEMENTED"] as const;

/** The code of a `NotImplementedError` (one of `NOT_IMPLEMENTED_ERROR_CODES`). */
export type NotImplementedErrorCode = (typeof NOT_IMPLEMENTED_ERROR_CODES)[number];

/**
 * Thrown by `createDeepAgent` for an option that is reserved but whose feature has not
 * landed yet (today only `cache`), so that it is never silently ignored. `option` names it;
 * `code` is `NOT_IMPLEMENTED`. Remove the option to build the agent.
 *
 * @example
 * createDeepAgent({ model, cache: true } as never) // throws NotImplementedError, option "cache"
 */
export class NotImplementedError extends DelveError<NotImplementedErrorCode> {
  /** The codes this class can carry. */
  static readonly codes: readonly NotImplementedErrorCode[] = NOT_IMPLEMENTED_ERROR_CODES;
  readonly [MARKER] = true;
  readonly option: string;

  constructor(option: string, detail = "") {
    super(
      "NOT_IMPLEMENTED",
      `Option "${option}" is not implemented in this version of delve yet${detail ? `: ${detail}` : ""}. Remove it from the options.`,
    );
    this.name = "NotImplementedError";
    this.option = option;
  }

  /** True for a `NotImplementedError` (or subclass), from this copy of the package or another. */
  static override isInstance(value: unknown): value is NotImplementedError {
    return hasErrorMarker(value, MARKER);
  }
}
