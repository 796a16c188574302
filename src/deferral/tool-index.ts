import type { SearchEntry } from "./tool-search.js";

/** A summary line of the index is cut to this many characters. */
export const INDEX_SUMMARY_CHARS = 70;

/** The index lists tools until it reaches this many characters; the rest are counted. */
export const INDEX_MAX_CHARS = 12_000;

// The first sentence of a description, on one line, capped: tool text from an MCP server
// cannot add lines that read as index entries of their own.
function summaryOf(description: string): string {
  const line = description.replace(/\s+/g, " ").trim();
  const sentence = /^(.+?[.!?])(\s|$)/.exec(line)?.[1] ?? line;
  return sentence.length > INDEX_SUMMARY_CHARS
    ? `${sentence.slice(0, INDEX_SUMMARY_CHARS - 1).trimEnd()}…`
    : sentence;
}

/**
 * The compact index of deferred tools: one `- name: summary` line each, in list order,
 * capped at `INDEX_MAX_CHARS` (the tools past the cap are counted, and search still finds them).
 */
export function toolIndex(entries: readonly SearchEntry[]): string {
  const lines: string[] = [];
  let chars = 0;
  for (const entry of entries) {
    const summary = summaryOf(entry.definition.description ?? "");
    const line = summary ? `- ${entry.name}: ${summary}` : `- ${entry.name}`;
    if (chars + line.length + 1 > INDEX_MAX_CHARS) break;
    lines.push(line);
    chars += line.length + 1;
  }
  const rest = entries.length - lines.length;
  if (rest > 0) lines.push(`(${rest} more not listed: search by words to find them)`);
  return lines.join("\n");
}
