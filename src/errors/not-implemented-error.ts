import { DelveError } from "./delve-error.js";

/**
 * Thrown by `createDeepAgent` for an option that is reserved but whose feature has not
 * landed yet (today only `cache`), so that it is never silently ignored. `option` names it;
 * `code` is `NOT_IMPLEMENTED`. Remove the option to build the agent.
 *
 * @example
 * createDeepAgent({ model, cache: true } as never) // throws NotImplementedError, option "cache"
 */
export class NotImplementedError extends DelveError {
  readonly option: string;

  constructor(option: string, detail = "") {
    super(
      "NOT_IMPLEMENTED",
      `Option "${option}" is not implemented in this version of delve yet${detail ? `: ${detail}` : ""}. Remove it from the options.`,
    );
    this.name = "NotImplementedError";
    this.option = option;
  }

  static override isInstance(value: unknown): value is NotImplementedError {
    return DelveError.isInstance(value) && value.code === "NOT_IMPLEMENTED";
  }
}
