import { DelveError, hasErrorMarker } from "./delve-error.js";

const MARKER = Symbol.for("delve.error.MissingProviderError");

/** Every `code` a `MissingProviderError` can carry. */
export const MISSING_PROVIDER_ERROR_CODES = ["MISSING_PROVIDER_PACKAGE"] as const;

/** The code of a `MissingProviderError` (one of `MISSING_PROVIDER_ERROR_CODES`). */
export type MissingProviderErrorCode = (typeof MISSING_PROVIDER_ERROR_CODES)[number];

/**
 * Thrown on the first real call of a model given as a `"provider:model"` string when the
 * provider's LangChain package is not installed. `packageName` is what to `npm install`.
 *
 * @example
 * // agent built with model "openai:gpt-5.5" and no @langchain/openai installed:
 * await agent.invoke(input) // MissingProviderError: install @langchain/openai
 */
export class MissingProviderError extends DelveError<MissingProviderErrorCode> {
  /** The codes this class can carry. */
  static readonly codes: readonly MissingProviderErrorCode[] = MISSING_PROVIDER_ERROR_CODES;
  readonly [MARKER] = true;
  readonly provider: string;
  readonly packageName: string;

  constructor(provider: string, packageName: string, cause?: unknown) {
    super(
      "MISSING_PROVIDER_PACKAGE",
      `Model provider "${provider}" needs the package ${packageName}. Install it with: npm install ${packageName}`,
      { cause },
    );
    this.name = "MissingProviderError";
    this.provider = provider;
    this.packageName = packageName;
  }

  /** True for a `MissingProviderError` (or subclass), from this copy of the package or another. */
  static override isInstance(value: unknown): value is MissingProviderError {
    return hasErrorMarker(value, MARKER);
  }
}
