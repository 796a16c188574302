import { MODEL_PROVIDER_CONFIG } from "langchain/chat_models/universal";
import { LazyChatModel } from "../models/lazy-chat-model.js";

/** The harness-profile key of a model and where it came from. */
export interface ProfileKey {
  /** `"provider:model"`, `"provider"`, or undefined when nothing identifies the model. */
  key?: string;
  provider?: string;
  source: "profileKey option" | "model string" | "model class" | "unknown";
}

// LangChain chat model class -> provider key (the first provider naming the class wins).
const CLASS_PROVIDER: Record<string, string> = {};
for (const [provider, config] of Object.entries(
  MODEL_PROVIDER_CONFIG as Record<string, { className: string }>,
)) {
  CLASS_PROVIDER[config.className] ??= provider;
}
CLASS_PROVIDER.ChatOpenAI = "openai";
CLASS_PROVIDER.AzureChatOpenAI = "azure_openai";
CLASS_PROVIDER.ChatBedrockConverse = "bedrock";

/**
 * Finds the profile key of a model: `profileKey` if given, else the `"provider:model"`
 * string, else the LangChain class (ChatOpenAI -> openai, ChatAnthropic -> anthropic, ...)
 * plus the instance's model name.
 *
 * @example
 * profileKeyOf(new ChatAnthropic({ model: "claude-sonnet-4-6" })).key // "anthropic:claude-sonnet-4-6"
 */
export function profileKeyOf(model: unknown, profileKey?: string): ProfileKey {
  if (profileKey) {
    return { key: profileKey, provider: profileKey.split(":")[0], source: "profileKey option" };
  }
  if (model instanceof LazyChatModel) {
    return { key: model.spec.key, provider: model.spec.provider, source: "model string" };
  }
  let proto = model ? Object.getPrototypeOf(model) : undefined;
  while (proto && proto !== Object.prototype) {
    const provider = CLASS_PROVIDER[proto.constructor?.name];
    if (provider) {
      const m = model as { model?: unknown; modelName?: unknown };
      const name =
        typeof m.model === "string"
          ? m.model
          : typeof m.modelName === "string"
            ? m.modelName
            : undefined;
      return { key: name ? `${provider}:${name}` : provider, provider, source: "model class" };
    }
    proto = Object.getPrototypeOf(proto);
  }
  return { source: "unknown" };
}
