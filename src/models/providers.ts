import { MODEL_PROVIDER_CONFIG } from "langchain/chat_models/universal";
import { ConfigurationError } from "../errors/configuration-error.js";

/** Seed and community spellings mapped to LangChain's provider keys. */
export const PROVIDER_ALIASES: Readonly<Record<string, string>> = {
  google_genai: "google-genai",
  gemini: "google-genai",
  google_vertexai: "google-vertexai",
  vertexai: "google-vertexai",
  google_vertexai_web: "google-vertexai-web",
  azure: "azure_openai",
  "azure-openai": "azure_openai",
  bedrock_converse: "bedrock",
  "bedrock-converse": "bedrock",
  mistral_ai: "mistralai",
  together_ai: "together",
  "together-ai": "together",
  x_ai: "xai",
};

/** A parsed `"provider:model"` string: LangChain's provider key, the model, its package. */
export interface ModelSpec {
  provider: string;
  model: string;
  packageName: string;
  /** `provider:model` with the provider in LangChain's spelling: the harness-profile key. */
  key: string;
}

/**
 * Parses and validates a `"provider:model"` string without importing anything, so an agent
 * can be built and inspected with no provider package installed.
 */
export function parseModelString(spec: string): ModelSpec {
  const colon = spec.indexOf(":");
  if (colon <= 0 || colon === spec.length - 1) {
    throw new ConfigurationError(
      "INVALID_MODEL",
      `Model "${spec}" must be written "provider:model", e.g. "openai:gpt-5.5" or "anthropic:claude-sonnet-4-6".`,
      { model: spec },
    );
  }
  const raw = spec.slice(0, colon).toLowerCase();
  const provider = PROVIDER_ALIASES[raw] ?? raw;
  const config = (MODEL_PROVIDER_CONFIG as Record<string, { package: string }>)[provider];
  if (!config) {
    throw new ConfigurationError(
      "UNKNOWN_MODEL_PROVIDER",
      `Unknown model provider "${raw}" in "${spec}". Known providers: ${Object.keys(MODEL_PROVIDER_CONFIG).join(", ")}; or pass a chat model instance.`,
      { model: spec, provider: raw },
    );
  }
  const model = spec.slice(colon + 1);
  return { provider, model, packageName: config.package, key: `${provider}:${model}` };
}
