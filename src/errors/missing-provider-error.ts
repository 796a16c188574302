import { DelveError } from "./delve-error.js";

/**
 * Thrown on the first real call of a model given as a `"provider:model"` string when the
 * provider's LangChain package is not installed. `packageName` is what to `npm install`.
 *
 * @example
 * // agent built with model "openai:gpt-5.5" and no @langchain/openai installed:
 * await agent.invoke(input) // MissingProviderError: install @langchain/openai
 */
export class MissingProviderError extends DelveError {
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
}
