/**
 * The character budget of one file-tool result. File tools are exempt from eviction (their
 * output is already paged), so each one stops at this budget and says how to narrow the
 * call instead of handing the model more than its window can take.
 */

/** The most one `ls`, `glob`, `grep` or `read_file` result shows (about 20,000 tokens). */
export const MAX_TOOL_OUTPUT_CHARS = 80_000;
/** The least: a budget below this would leave no room for a useful page. */
export const MIN_TOOL_OUTPUT_CHARS = 4_000;

/**
 * The output budget for a model with an input window of `windowTokens`: a tenth of the
 * window at about four characters a token, within MIN..MAX. Unknown window: the maximum.
 *
 * @example
 * outputBudgetFor(128_000) // 51_200
 */
export function outputBudgetFor(windowTokens: number | undefined): number {
  if (!windowTokens || !Number.isFinite(windowTokens)) return MAX_TOOL_OUTPUT_CHARS;
  const chars = Math.round(windowTokens * 0.4);
  return Math.min(MAX_TOOL_OUTPUT_CHARS, Math.max(MIN_TOOL_OUTPUT_CHARS, chars));
}

/** The leading rows that fit in `budget` characters joined by newlines, and how many they are. */
export function rowsWithin(
  rows: readonly string[],
  budget: number,
): { text: string; kept: number } {
  let size = 0;
  let kept = 0;
  for (const row of rows) {
    const cost = row.length + (kept > 0 ? 1 : 0);
    if (size + cost > budget) break;
    size += cost;
    kept++;
  }
  return { text: rows.slice(0, kept).join("\n"), kept };
}

/** The note after a result cut at the budget: what was shown and how to narrow. */
export function budgetNote(
  shown: number,
  total: number | string,
  unit: string,
  narrow: string,
): string {
  return `[Output limit reached: showing ${shown} of ${total} ${unit}; the result is incomplete. ${narrow}]`;
}
