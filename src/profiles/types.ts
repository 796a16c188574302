import type { AgentMiddleware } from "langchain";
import type { SubagentMode } from "../subagents/fork.js";

/** The general-purpose subagent's settings in a harness profile. */
export interface GeneralPurposeSubagentConfig {
  /** False removes it; with no other synchronous subagent, `task` disappears entirely. */
  enabled?: boolean;
  description?: string;
  /** Its prompt; for a fork, optional text added after the parent's prompt. */
  systemPrompt?: string;
  /**
   * `"isolated"` (default): it starts with the task's description only. `"fork"`: with the
   * parent's system prompt and conversation so far, the description as the new user turn.
   */
  mode?: SubagentMode;
}

/**
 * How the harness presents itself to one family of models: prompt text around the user's
 * system prompt, rewritten tool descriptions, tools and middleware to leave out, middleware
 * to add, and the general-purpose subagent. Registered per `"*"`, `"provider"` or
 * `"provider:model"`, or passed to one agent with `createDeepAgent({ profile })`.
 *
 * @example
 * registerHarnessProfile("deepseek", { excludedTools: ["write_file", "edit_file", "delete"] });
 */
export interface HarnessProfile {
  /** Text placed after the user's system prompt. */
  baseSystemPrompt?: string;
  /** Text placed last in the system prompt. */
  systemPromptSuffix?: string;
  /** Tool name -> description, applied when tools are built. */
  toolDescriptionOverrides?: Record<string, string>;
  /** Tools hidden from the model and refused if called; they stay registered. */
  excludedTools?: string[];
  /** Middleware removed from the stack, by name. */
  excludedMiddleware?: string[];
  /** Middleware added after the user's. */
  extraMiddleware?: AgentMiddleware[];
  generalPurposeSubagent?: GeneralPurposeSubagentConfig;
}

/** The fields a profile may have, for validation. */
export const PROFILE_FIELDS: readonly (keyof HarnessProfile)[] = [
  "baseSystemPrompt",
  "systemPromptSuffix",
  "toolDescriptionOverrides",
  "excludedTools",
  "excludedMiddleware",
  "extraMiddleware",
  "generalPurposeSubagent",
];
