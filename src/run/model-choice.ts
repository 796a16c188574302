import { ConfigurationError } from "../errors/configuration-error.js";
import type { DelveConfig } from "./config.js";

/**
 * Which model `delve run` uses: `--model`, then `DELVE_MODEL`, then the config's `model`,
 * then a default for the first provider key found (Anthropic, then OpenAI). `source` says
 * where the choice came from, so the run can tell the user.
 */

/** The model picked when only a provider key is set, by the key's variable. */
export const DEFAULT_MODELS: readonly { env: string; model: string }[] = [
  { env: "ANTHROPIC_API_KEY", model: "anthropic:claude-sonnet-4-6" },
  { env: "OPENAI_API_KEY", model: "openai:gpt-5.5" },
];

/** The model name that makes a person (or a program) play the model: `HumanChatModel`. */
export const HUMAN_MODEL = "human";

function checkShape(model: string, source: string): string {
  const trimmed = model.trim();
  if (trimmed === HUMAN_MODEL) return trimmed;
  const colon = trimmed.indexOf(":");
  if (colon <= 0 || colon === trimmed.length - 1 || /\s/.test(trimmed)) {
    throw new ConfigurationError(
      "INVALID_MODEL",
      `The model "${model}" from ${source} must be written "provider:model", e.g. "anthropic:claude-sonnet-4-6" or "openai:gpt-5.5" (or "human" to play the model yourself).`,
      { model, source },
    );
  }
  return trimmed;
}

/**
 * Picks the run's model; throws `INVALID_MODEL` for a value not shaped "provider:model" and
 * `NO_MODEL` when nothing names one and no provider key is set.
 */
export function chooseModel(opts: { flag?: string; env: NodeJS.ProcessEnv; config: DelveConfig }): {
  model: string;
  source: string;
} {
  const named: [string | undefined, string][] = [
    [opts.flag, "--model"],
    [opts.env.DELVE_MODEL, "DELVE_MODEL"],
    [opts.config.model, "the config"],
  ];
  for (const [value, source] of named) {
    if (value !== undefined && value !== "") return { model: checkShape(value, source), source };
  }
  for (const { env, model } of DEFAULT_MODELS) {
    if (opts.env[env]?.trim()) return { model, source: `${env} is set` };
  }
  throw new ConfigurationError(
    "NO_MODEL",
    `No model to run: set ANTHROPIC_API_KEY or OPENAI_API_KEY, or name one with --model provider:model, DELVE_MODEL or "model" in .delve/config.json.`,
    { looked: ["--model", "DELVE_MODEL", "config", ...DEFAULT_MODELS.map((d) => d.env)] },
  );
}
