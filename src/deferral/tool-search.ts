import type { StackTool } from "../agent/langchain-types.js";
import { measureTool, type SurfaceToolDefinition } from "../surface/inspect-surface.js";

/** One deferred tool as search sees it: its full definition and the words it is found by. */
export interface SearchEntry {
  name: string;
  tool: StackTool;
  definition: SurfaceToolDefinition & { description: string };
  nameWords: ReadonlySet<string>;
  words: ReadonlySet<string>;
}

/** Queries longer than this are cut: words past it add nothing but work. */
export const MAX_QUERY_CHARS = 500;

const STOP_WORDS = new Set(
  "a an and the to of for in on or by with from at is are be my me i it this that tool tools".split(
    " ",
  ),
);

// "getOrderStatus", "crm_get-order" -> ["get", "order", "status"]; plurals folded.
function wordsOf(text: string): string[] {
  return text
    .slice(0, 20_000)
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1 && !STOP_WORDS.has(w))
    .map((w) => (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") ? w.slice(0, -1) : w));
}

/** Builds the search entry of one tool, once, at construction. */
export function searchEntryOf(tool: StackTool): SearchEntry {
  const measured = measureTool(tool);
  const definition = measured.definition as SearchEntry["definition"];
  const parameters = JSON.stringify((definition as { parameters?: unknown }).parameters ?? {});
  return {
    name: measured.name,
    tool,
    definition,
    nameWords: new Set(wordsOf(measured.name)),
    words: new Set([...wordsOf(definition.description ?? ""), ...wordsOf(parameters)]),
  };
}

/**
 * The best matches of `query` among `entries`: exact tool names first (a query of names only
 * returns just those), then by words found in the name (worth 3) or in the description and arguments
 * (worth 1), a word also matching as a prefix of a name word (worth 2). Ties keep list order.
 */
export function searchTools(
  query: string,
  entries: readonly SearchEntry[],
  limit: number,
): SearchEntry[] {
  const text = query.slice(0, MAX_QUERY_CHARS);
  const byName = new Map(entries.map((e) => [e.name, e]));
  const tokens = text.split(/[\s,]+/).filter(Boolean);
  const exact = [...new Set(tokens.filter((t) => byName.has(t)))].map((t) => byName.get(t)!);
  // A query of names only loads exactly those.
  if (exact.length && exact.length === new Set(tokens).size) return exact;
  const terms = [...new Set(wordsOf(text))];
  const scored: Array<{ entry: SearchEntry; score: number; index: number }> = [];
  entries.forEach((entry, index) => {
    if (exact.includes(entry)) return;
    let score = 0;
    for (const term of terms) {
      if (entry.nameWords.has(term)) score += 3;
      else if (term.length >= 3 && [...entry.nameWords].some((w) => w.startsWith(term))) score += 2;
      if (entry.words.has(term)) score += 1;
    }
    if (score > 0) scored.push({ entry, score, index });
  });
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  return [...exact, ...scored.map((s) => s.entry)].slice(0, Math.max(limit, exact.length));
}
