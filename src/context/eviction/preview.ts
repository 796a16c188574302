import { splitLines } from "../../backends/protocol/text-content.js";
import { headAndTail, textTokens } from "../token-estimate.js";

/** Lines shown from each end of an evicted result. */
export const PREVIEW_END_LINES = 5;
/** A preview line longer than this is clipped. */
export const PREVIEW_LINE_CHARS = 500;

/**
 * A head-and-tail preview of a text, numbered like `read_file` (right-aligned line number,
 * two spaces, the text): the first and last `endLines` lines, each clipped to `lineChars`,
 * and a marker saying how many lines were omitted between them. A text of at most
 * 2 x `endLines` lines is shown whole.
 *
 * @example
 * previewLines("a\nb\nc", 1)
 * // "1  a\n... [1 line omitted] ...\n3  c"
 */
export function previewLines(
  text: string,
  endLines = PREVIEW_END_LINES,
  lineChars = PREVIEW_LINE_CHARS,
): string {
  const lines = splitLines(text);
  const width = String(lines.length).length;
  const row = (line: string, index: number) =>
    `${String(index + 1).padStart(width)}  ${clipLine(line, lineChars)}`;
  if (lines.length <= endLines * 2) return lines.map(row).join("\n");
  const omitted = lines.length - endLines * 2;
  const head = lines.slice(0, endLines).map(row);
  const tail = lines.slice(-endLines).map((line, i) => row(line, lines.length - endLines + i));
  return [...head, `... [${omitted} line${omitted === 1 ? "" : "s"} omitted] ...`, ...tail].join(
    "\n",
  );
}

function clipLine(line: string, max: number): string {
  if (line.length <= max) return line;
  return `${line.slice(0, max)}... [${line.length - max} more characters]`;
}

/** What the model may be told about reading a saved result back. */
export interface ReadBackHints {
  /** True when the named tool is visible to the model (text may mention it). */
  mentions(toolName: string): boolean;
}

/**
 * The text that replaces an evicted result: where the full result is, how to read it (naming
 * `read_file` / `grep` only when the model can see them), and a head-and-tail preview.
 */
export function evictedNotice(
  text: string,
  path: string,
  hints: ReadBackHints,
  what: "result" | "message" = "result",
): string {
  const lines = splitLines(text).length;
  const size = `about ${textTokens(text).toLocaleString("en-US")} tokens, ${lines.toLocaleString("en-US")} lines`;
  const how: string[] = [];
  if (hints.mentions("read_file")) {
    how.push(
      "Read it with read_file, paging by lines: offset N starts at line N+1, limit is how many lines to return.",
    );
  }
  if (hints.mentions("grep")) how.push("Search it with grep.");
  if (how.length === 0) how.push(`The file holds the complete ${what}.`);
  const ends =
    lines > PREVIEW_END_LINES * 2
      ? `First ${PREVIEW_END_LINES} and last ${PREVIEW_END_LINES} lines:`
      : "Preview:";
  return `This ${what} was too large to keep in the conversation (${size}), so it was saved in full to ${path}. ${how.join(" ")}\n${ends}\n${previewLines(text)}`;
}

/**
 * The text that replaces a large result that could not be saved: says so and why, then the
 * result's head and tail within `budget` tokens with the cut marked, so nothing is lost
 * silently.
 */
export function truncatedNotice(text: string, reason: string, budget: number): string {
  const { head, tail, cut } = headAndTail(text, budget);
  return `This result was too large to keep in the conversation and could not be saved to a file (${reason}), so it was truncated: ${cut.toLocaleString("en-US")} of ${text.length.toLocaleString("en-US")} characters were cut from the middle. The beginning and end follow.\n${head}\n[... ${cut.toLocaleString("en-US")} characters cut ...]\n${tail}`;
}
