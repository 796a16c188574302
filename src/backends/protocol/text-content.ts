import type { BackendError, EditResult, GrepMatch, ReadOptions, ReadResult } from "./protocol.js";

/** Default page size at the protocol level (the `read_file` tool asks for 100). */
export const DEFAULT_READ_LIMIT = 2000;

/** Splits text into lines; a trailing newline does not make an extra empty line. */
export function splitLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.endsWith("\r")) lines[i] = line.slice(0, -1);
  }
  return lines;
}

/** One page of a text file as a `ReadResult`. */
export function pageText(text: string, options: ReadOptions = {}, size?: number): ReadResult {
  const all = splitLines(text);
  const offset = Math.max(0, Math.floor(options.offset ?? 0));
  const limit = Math.max(0, Math.floor(options.limit ?? DEFAULT_READ_LIMIT));
  const lines = all.slice(offset, offset + limit);
  const result: ReadResult = {
    kind: "text",
    lines,
    totalLines: all.length,
    size: size ?? Buffer.byteLength(text),
  };
  if (lines.length > 0) {
    result.startLine = offset + 1;
    result.endLine = offset + lines.length;
    if (offset + lines.length < all.length) result.nextOffset = offset + lines.length;
  }
  return result;
}

/** Counts non-overlapping occurrences of `needle` in `text`. */
export function countOccurrences(text: string, needle: string): number {
  if (needle.length === 0) return 0;
  let count = 0;
  let at = text.indexOf(needle);
  while (at !== -1) {
    count++;
    at = text.indexOf(needle, at + needle.length);
  }
  return count;
}

/**
 * Exact string replacement with the protocol's error rules: the string must exist, and must
 * be unique unless `replaceAll`. Returns the new text, or an `EditResult` error.
 */
export function replaceInText(
  text: string,
  oldString: string,
  newString: string,
  replaceAll = false,
): { text: string; occurrences: number } | { error: BackendError; occurrences?: number } {
  if (oldString.length === 0) {
    return { error: { code: "string_not_found", message: "old_string is empty" } };
  }
  const occurrences = countOccurrences(text, oldString);
  if (occurrences === 0 && oldString.includes("\n") && text.includes("\r\n")) {
    // read_file shows CRLF lines without their "\r": match the text as the model saw it, and
    // write the replacement with the file's own line ends.
    const crlf = (s: string) => s.replace(/\r?\n/g, "\r\n");
    const found = countOccurrences(text, crlf(oldString));
    if (found > 0) return replaceInText(text, crlf(oldString), crlf(newString), replaceAll);
  }
  if (occurrences === 0) {
    return { error: { code: "string_not_found", message: "old_string was not found in the file" } };
  }
  if (occurrences > 1 && !replaceAll) {
    return {
      error: { code: "not_unique", message: `old_string appears ${occurrences} times in the file` },
      occurrences,
    };
  }
  return { text: text.split(oldString).join(newString), occurrences };
}

/** Builds an `EditResult` from `replaceInText`'s answer for backends that store text. */
export function editResultOf(path: string, outcome: ReturnType<typeof replaceInText>): EditResult {
  if ("error" in outcome) return { error: outcome.error, occurrences: outcome.occurrences };
  return { path, occurrences: outcome.occurrences };
}

/**
 * Literal line search in one file's text, appending to `out` until `max` matches. Returns
 * false when the cap was hit (the search is incomplete).
 */
export function grepText(
  path: string,
  text: string,
  pattern: string,
  out: GrepMatch[],
  max: number,
): boolean {
  // An empty pattern matches every line (as `grep ""` does); the scan below would loop on it.
  if (pattern.length === 0) {
    const lines = splitLines(text);
    for (let i = 0; i < lines.length; i++) {
      if (out.length >= max) return false;
      out.push({ path, line: i + 1, text: lines[i]! });
    }
    return true;
  }
  let at = text.indexOf(pattern);
  if (at === -1) return true;
  let lineNo = 1;
  let lineStart = 0;
  let scanned = 0;
  while (at !== -1) {
    // Count newlines between the last scanned point and this match.
    for (let i = text.indexOf("\n", scanned); i !== -1 && i < at; i = text.indexOf("\n", i + 1)) {
      lineNo++;
      lineStart = i + 1;
    }
    scanned = at;
    let lineEnd = text.indexOf("\n", at);
    if (lineEnd === -1) lineEnd = text.length;
    if (out.length >= max) return false;
    let line = text.slice(lineStart, lineEnd);
    if (line.endsWith("\r")) line = line.slice(0, -1);
    out.push({ path, line: lineNo, text: line });
    scanned = lineEnd;
    at = text.indexOf(pattern, lineEnd);
    if (at !== -1) {
      lineNo++;
      lineStart = lineEnd + 1;
      scanned = lineStart;
    }
  }
  return true;
}
