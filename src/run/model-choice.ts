// TEMPORARY STUB: the real module comes from branch h-run-rules (same interface).
import { ConfigurationError } from "../errors/configuration-error.js";
import type { DelveConfig } from "./config.js";

/** Picks the model: flag, DELVE_MODEL, config, then the keys present. */
export function chooseModel(opts: { flag?: string; env: NodeJS.ProcessEnv; config: DelveConfig }): {
  model: string;
  source: string;
} {
  if (opts.flag) return { model: opts.flag, source: "--model" };
  if (opts.env.DELVE_MODEL) return { model: opts.env.DELVE_MODEL, source: "DELVE_MODEL" };
  if (opts.config.model) return { model: opts.config.model, source: "config" };
  if (opts.env.ANTHROPIC_API_KEY)
    return { model: "anthropic:claude-sonnet-4-5", source: "ANTHROPIC_API_KEY" };
  if (opts.env.OPENAI_API_KEY) return { model: "openai:gpt-5", source: "OPENAI_API_KEY" };
  throw new ConfigurationError(
    "MISSING_OPTION",
    "no model: pass --model provider:model, set DELVE_MODEL, or set OPENAI_API_KEY or ANTHROPIC_API_KEY.",
  );
}
