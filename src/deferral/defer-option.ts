import type { StackTool } from "../agent/langchain-types.js";
import { ConfigurationError } from "../errors/configuration-error.js";

/**
 * Which of an agent's own tools are deferred: named in a compact index and loaded by
 * `search_tools` instead of sent in full on every request (yours and MCP's, never built-ins).
 * `"auto"` (default) defers them all when their definitions would take more than
 * `AUTO_DEFER_SHARE` of the model's input window; `true` always, `false` never; a list of
 * names or a predicate defers exactly those.
 *
 * @example
 * createDeepAgent({ model, tools: mcp.tools, deferTools: (name) => name.startsWith("crm_") });
 */
export type DeferToolsOption =
  | "auto"
  | boolean
  | readonly string[]
  | ((name: string, tool: StackTool) => boolean);

/** With `deferTools: "auto"`: the share of the input window above which tools are deferred. */
export const AUTO_DEFER_SHARE = 0.05;

/** A deferrable tool: one of the agent's own runnable tools, with its estimated tokens. */
export interface DeferrableTool {
  name: string;
  tool: StackTool;
  tokens: number;
}

/** Checks the `deferTools` option at construction. */
export function validateDeferTools(value: unknown, where = "deferTools"): DeferToolsOption {
  if (value === undefined) return "auto";
  if (value === "auto" || typeof value === "boolean" || typeof value === "function") {
    return value as DeferToolsOption;
  }
  if (Array.isArray(value) && value.every((n) => typeof n === "string")) return value;
  throw new ConfigurationError(
    "INVALID_OPTION",
    `${where} must be "auto", true, false, a list of tool names, or a function (name, tool) => boolean.`,
  );
}

/**
 * The names to defer among `candidates` (the agent's own runnable tools, built-ins and
 * profile-excluded tools left out). With `strict`, a listed name that is not a candidate is an error.
 */
export function namesToDefer(
  option: DeferToolsOption,
  candidates: readonly DeferrableTool[],
  inputWindow: number,
  where = "deferTools",
  strict = true,
): Set<string> {
  if (option === false) return new Set();
  if (option === true) return new Set(candidates.map((c) => c.name));
  if (option === "auto") {
    const tokens = candidates.reduce((sum, c) => sum + c.tokens, 0);
    return tokens > inputWindow * AUTO_DEFER_SHARE
      ? new Set(candidates.map((c) => c.name))
      : new Set();
  }
  if (typeof option === "function") {
    return new Set(candidates.filter((c) => option(c.name, c.tool)).map((c) => c.name));
  }
  const known = new Set(candidates.map((c) => c.name));
  // A subagent inherits the list and defers whichever of the named tools it has.
  if (!strict) return new Set(option.filter((name) => known.has(name)));
  for (const name of option) {
    if (!known.has(name)) {
      throw new ConfigurationError(
        "UNKNOWN_DEFERRED_TOOL",
        `${where} names "${name}", which is not one of this agent's own tools (built-in tools are never deferred). Deferrable: ${[...known].join(", ") || "none"}.`,
        { tool: name },
      );
    }
  }
  return new Set(option);
}
