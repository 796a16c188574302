import { BUILTIN_TOOL_NAMES } from "../agent/builtin-names.js";
import type { StackModel, StackTool } from "../agent/langchain-types.js";
import { DEFAULT_CONTEXT_WINDOW, profileContextWindow } from "../context/context-window.js";
import { toolTokens } from "../context/token-estimate.js";
import { type DeferToolsOption, namesToDefer } from "./defer-option.js";
import { toolDeferralMiddleware } from "./middleware.js";

/**
 * The deferral layer of one agent, or undefined when nothing is deferred (then the agent is
 * exactly as without the feature). Candidates are the agent's own runnable tools, minus any
 * named like a built-in and any its profile hides; the window is the `contextWindow` option,
 * else the model's profile, else `DEFAULT_CONTEXT_WINDOW`.
 */
export function deferralLayer(settings: {
  option: DeferToolsOption;
  tools: readonly StackTool[];
  hidden: ReadonlySet<string>;
  model: StackModel;
  contextWindow?: number;
  where?: string;
  /** False for subagents: a listed name they do not have is skipped, not an error. */
  strict?: boolean;
}) {
  const candidates = settings.tools.flatMap((tool) => {
    const name = (tool as { name?: unknown }).name;
    const runnable = typeof (tool as { invoke?: unknown }).invoke === "function";
    if (!runnable || typeof name !== "string") return [];
    if (BUILTIN_TOOL_NAMES.includes(name) || settings.hidden.has(name)) return [];
    return [{ name, tool, tokens: toolTokens(tool) }];
  });
  const window =
    settings.contextWindow ?? profileContextWindow(settings.model) ?? DEFAULT_CONTEXT_WINDOW;
  const deferred = namesToDefer(
    settings.option,
    candidates,
    window,
    settings.where,
    settings.strict,
  );
  if (deferred.size === 0) return undefined;
  return toolDeferralMiddleware({ tools: settings.tools, deferred });
}
