import { DEFAULT_GREP_MAX_COUNT } from "../../backends/protocol/file-query.js";
import type { GrepMatch } from "../../backends/protocol/protocol.js";
import type { FsToolContext } from "../fs-context.js";
import { defineTool } from "./define-tool.js";
import { budgetNote, MAX_TOOL_OUTPUT_CHARS, rowsWithin } from "./output-budget.js";
import {
  describeBackendError,
  errorMessage,
  globPatternError,
  hiddenRootError,
  missingRootError,
  pathOrError,
} from "./tool-output.js";

export const GREP_TOOL_NAME = "grep";
export const GREP_OUTPUT_MODES = ["files_with_matches", "content", "count"] as const;
export type GrepOutputMode = (typeof GREP_OUTPUT_MODES)[number];

/** The `grep` description, mentioning only tools the model can see. */
export function grepDescription(ctx: Pick<FsToolContext, "mentions">): string {
  const byName = ctx.mentions("glob") ? " To find files by name, use the glob tool." : "";
  return `Search file contents for a literal string (not a regex). output_mode: files_with_matches (default, paths), content (path, then "n: text" lines), count (path: n). Narrow with path (a directory or file) and glob (a file-name filter, e.g. *.md). Stops at ${DEFAULT_GREP_MAX_COUNT} matches or the output limit and says so.${byName}`;
}

/** The longest matching line shown whole in `content` mode; longer ones show the match's part. */
export const MAX_MATCH_LINE_CHARS = 300;

/** One output row and the matches it accounts for (content headers account for none). */
interface GrepRow {
  text: string;
  matches: number;
}

/** Renders matches in one of the three output modes. */
export function formatGrep(matches: GrepMatch[], mode: GrepOutputMode, pattern = ""): string {
  return grepRows(matches, mode, pattern)
    .map((r) => r.text)
    .join("\n");
}

// Rows of one output mode: content lists each path once, then its "line: text" rows.
function grepRows(matches: GrepMatch[], mode: GrepOutputMode, pattern: string): GrepRow[] {
  if (mode === "content") {
    const rows: GrepRow[] = [];
    let current: string | undefined;
    for (const m of matches) {
      if (m.path !== current) rows.push({ text: m.path, matches: 0 });
      current = m.path;
      rows.push({ text: `${m.line}: ${clipAround(m.text, pattern)}`, matches: 1 });
    }
    return rows;
  }
  const counts = new Map<string, number>();
  for (const m of matches) counts.set(m.path, (counts.get(m.path) ?? 0) + 1);
  if (mode === "count")
    return [...counts].map(([path, n]) => ({ text: `${path}: ${n}`, matches: n }));
  return [...counts].map(([path, n]) => ({ text: path, matches: n }));
}

// A long line (minified code, a one-line data file) shows the part around its first match.
function clipAround(text: string, pattern: string): string {
  if (text.length <= MAX_MATCH_LINE_CHARS) return text;
  const at = Math.max(0, text.indexOf(pattern));
  const start = Math.max(0, Math.min(at - 100, text.length - MAX_MATCH_LINE_CHARS));
  const end = start + MAX_MATCH_LINE_CHARS;
  return `${start > 0 ? "…" : ""}${text.slice(start, end)}${end < text.length ? "…" : ""} [line of ${text.length} chars, cut]`;
}

const REGEX_LOOK = /\\[dwsb]|\.\*|\.\+|[[\]^$|]|\(\?/;
// "lateFee\(": a regex escape of a character that is itself plain text here.
const REGEX_ESCAPE = /\\([\\^$.|?*+()[\]{}/])/g;

// After an empty search: grep is literal, so say so when the pattern was written as a regex,
// and offer the unescaped text when escapes were all that made it one.
function literalHint(pattern: string): string {
  const plain = pattern.replace(REGEX_ESCAPE, "$1");
  if (plain !== pattern && !REGEX_LOOK.test(plain)) {
    return ` The pattern is matched literally, not as a regex: search ${JSON.stringify(plain)}.`;
  }
  if (plain !== pattern || REGEX_LOOK.test(pattern)) {
    return " The pattern is matched literally, not as a regex: search a plain substring.";
  }
  return "";
}

/** Builds the `grep` tool. */
export function createGrepTool(ctx: FsToolContext) {
  return defineTool<{
    pattern: string;
    path?: string;
    glob?: string;
    output_mode?: GrepOutputMode;
  }>({
    name: GREP_TOOL_NAME,
    description: grepDescription(ctx),
    schema: {
      type: "object",
      properties: {
        pattern: { type: "string", minLength: 1 },
        path: { type: "string" },
        glob: { type: "string" },
        output_mode: { type: "string", enum: [...GREP_OUTPUT_MODES] },
      },
      required: ["pattern"],
    },
    run: async ({ pattern, path: raw, glob, output_mode = "files_with_matches" }, config) => {
      const checked = pathOrError(raw ?? "/");
      if ("error" in checked) return errorMessage(config, GREP_TOOL_NAME, checked.error);
      const refused =
        hiddenRootError(ctx.guard, checked.path) ??
        (glob === undefined ? undefined : globPatternError(glob, "glob"));
      if (refused) return errorMessage(config, GREP_TOOL_NAME, refused);
      const result = await ctx.backend.grep(pattern, {
        path: checked.path,
        glob,
        maxCount: DEFAULT_GREP_MAX_COUNT,
      });
      if (result.error) {
        return errorMessage(
          config,
          GREP_TOOL_NAME,
          describeBackendError(result.error, checked.path, ctx.mentions, ctx.execution),
        );
      }
      const matches = ctx.guard.visibleMatches(result.matches ?? []);
      if (matches.length === 0) {
        const missing = await missingRootError(ctx, checked.path);
        if (missing) return errorMessage(config, GREP_TOOL_NAME, missing);
        const incomplete = result.truncated
          ? " The search was incomplete: narrow the path or the file filter."
          : "";
        return `No matches found.${incomplete}${literalHint(pattern)}`;
      }
      const narrow = "Narrow the path or the file filter, or search a more specific string.";
      const rows = grepRows(matches, output_mode, pattern);
      const { text, kept } = rowsWithin(
        rows.map((r) => r.text),
        ctx.outputChars ?? MAX_TOOL_OUTPUT_CHARS,
      );
      if (kept < rows.length) {
        const shown = rows.slice(0, kept).reduce((n, r) => n + r.matches, 0);
        const total = `${matches.length}${result.truncated ? "+" : ""}`;
        return `${text}\n\n${budgetNote(shown, total, "matches", narrow)}`;
      }
      if (!result.truncated) return text;
      return `${text}\n\n[Stopped at ${matches.length} matches: the result is incomplete. ${narrow}]`;
    },
  });
}
