import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { AgentMiddleware } from "langchain";
import type { AgentTool } from "../agent/user-tools.js";
import type { InterruptOn } from "../approval/middleware.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import type { PermissionRule } from "../permissions/index.js";
import type { SubagentMode } from "./fork.js";

/**
 * A subagent described by its parts. Unset fields inherit from the parent (model, tools,
 * middleware); `permissions`, if set, replaces the parent's rules. It gets `task` only when
 * it lists `subagents` of its own, within `maxSubagentDepth`.
 *
 * @example
 * const researcher: SubAgent = {
 *   name: "researcher",
 *   description: "Finds facts in /kb and cites file paths.",
 *   systemPrompt: "Search /kb with grep, read what matches, answer with citations.",
 *   tools: [],
 * };
 */
export interface SubAgent {
  name: string;
  description: string;
  /** Its system prompt; for a fork, optional text added after the parent's prompt. */
  systemPrompt?: string;
  /**
   * `"isolated"` (default): it starts with the task's description only. `"fork"`: with the
   * parent's system prompt and conversation so far, the description as the new user turn.
   */
  mode?: SubagentMode;
  tools?: AgentTool[];
  model?: string | BaseChatModel;
  middleware?: AgentMiddleware[];
  permissions?: PermissionRule[];
  responseFormat?: unknown;
  subagents?: Array<SubAgent | CompiledSubAgent>;
  /**
   * Human approval per tool, as `createDeepAgent`'s `interruptOn`; it replaces the parent's
   * gates. Unset, the subagent inherits the parent's gates on the tools it has.
   */
  interruptOn?: InterruptOn;
}

/**
 * A subagent you built yourself (any runnable taking `{ messages, files }` and returning
 * `{ messages, files?, structuredResponse? }`), such as another `createDeepAgent` graph.
 *
 * @example
 * const reviewer: CompiledSubAgent = { name: "reviewer", description: "Reviews a brief.", runnable: reviewerAgent };
 */
export interface CompiledSubAgent {
  name: string;
  description: string;
  runnable: { invoke(input: any, config?: any): Promise<any> };
  /**
   * `"isolated"` (default): its input is the task's description only. `"fork"`: the parent's
   * conversation so far, the description as the new user turn (its system prompt stays the
   * runnable's own).
   */
  mode?: SubagentMode;
}

/** True for a compiled subagent. */
export function isCompiledSubAgent(value: SubAgent | CompiledSubAgent): value is CompiledSubAgent {
  return typeof (value as CompiledSubAgent).runnable?.invoke === "function";
}

const SPEC_FIELDS = [
  "name",
  "description",
  "systemPrompt",
  "tools",
  "model",
  "middleware",
  "permissions",
  "responseFormat",
  "subagents",
  "interruptOn",
  "mode",
];

/** Checks a list of subagent specs: shapes, unique names, required text. */
export function validateSubagents(
  list: unknown,
  where: string,
): Array<SubAgent | CompiledSubAgent> {
  const fail = (problem: string): never => {
    throw new ConfigurationError("INVALID_SUBAGENT", `${where}${problem}`);
  };
  if (!Array.isArray(list)) return fail(" must be an array of subagents.");
  const names = new Set<string>();
  list.forEach((spec, i) => {
    const at = `[${i}]`;
    if (typeof spec !== "object" || spec === null) fail(`${at} must be an object.`);
    const s = spec as Record<string, unknown>;
    if (typeof s.name !== "string" || !/^[a-zA-Z0-9_-]{1,64}$/.test(s.name)) {
      fail(`${at} needs a name of letters, digits, _ or - (got ${JSON.stringify(s.name)}).`);
    }
    if (names.has(s.name as string)) fail(`${at} repeats the name "${s.name}".`);
    names.add(s.name as string);
    if (typeof s.description !== "string" || !s.description.trim()) {
      fail(`${at} ("${s.name}") needs a description: the model reads it to choose the subagent.`);
    }
    if (s.mode !== undefined && s.mode !== "isolated" && s.mode !== "fork") {
      fail(
        `${at} ("${s.name}") mode must be "isolated" or "fork" (got ${JSON.stringify(s.mode)}).`,
      );
    }
    if (typeof (s.runnable as any)?.invoke === "function") return;
    if ("runnable" in s) fail(`${at} ("${s.name}") runnable must have an invoke method.`);
    for (const key of Object.keys(s)) {
      if (!SPEC_FIELDS.includes(key)) fail(`${at} ("${s.name}") has unknown field "${key}".`);
    }
    const forked = s.mode === "fork";
    if (typeof s.systemPrompt !== "string" && !(forked && s.systemPrompt === undefined)) {
      fail(`${at} ("${s.name}") needs a systemPrompt.`);
    }
  });
  return list as Array<SubAgent | CompiledSubAgent>;
}
