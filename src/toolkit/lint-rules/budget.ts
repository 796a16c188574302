import type { LintFinding } from "./types.js";

/** The default `budgetChars`: what a tool surface may cost per turn before it is flagged. */
export const DEFAULT_BUDGET_CHARS = 8_000;

/**
 * `surface-budget`: the tools together cost more than the budget on every model call
 * (name + description + JSON schema, measured as the surface inspector does).
 */
export function surfaceBudget(
  tools: ReadonlyArray<{ name: string; chars: number }>,
  budgetChars: number,
): LintFinding[] {
  const total = tools.reduce((sum, t) => sum + t.chars, 0);
  if (total <= budgetChars) return [];
  const largest = [...tools]
    .sort((a, b) => b.chars - a.chars)
    .slice(0, 3)
    .map((t) => `${t.name} (${t.chars})`)
    .join(", ");
  return [
    {
      tool: "*",
      rule: "surface-budget",
      message: `The ${tools.length} tools cost ${total} characters on every model call, over the budget of ${budgetChars}; largest: ${largest}.`,
      fix: "Drop tools this agent does not need, merge tools that differ only by a filter, shorten long descriptions, or raise budgetChars if the cost is intended.",
    },
  ];
}
