// The transcript as plain data: lines with a tone, so the view only maps tones to colours and
// every screen is the same text with NO_COLOR, in a pipe and in tests.

/** How a line is shown; the view picks a colour per tone (none under NO_COLOR). */
export type Tone =
  | "plain"
  | "dim"
  | "user"
  | "assistant"
  | "tool"
  | "add"
  | "del"
  | "hunk"
  | "ok"
  | "error"
  | "warn"
  | "accent";

/** One line of the transcript. `truncate` keeps it on one row (cut with …) instead of wrapping. */
export interface Line {
  text: string;
  tone?: Tone;
  /** Indent in columns (subagent work sits under its task call). */
  indent?: number;
  bold?: boolean;
  truncate?: boolean;
}

/** A block of lines written once to the transcript (Ink's Static). */
export interface Entry {
  id: number;
  lines: Line[];
}

/** Lines of `text` with one tone and indent. */
export function textLines(text: string, tone: Tone = "plain", indent = 0): Line[] {
  return text.split("\n").map((t) => ({ text: t, tone, indent }));
}

/** The argument that names what a tool works on, in the order tools usually name it. */
const MAIN_ARGS = ["file_path", "path", "command", "pattern", "query", "url", "description"];

/** A call's arguments in a few words: the main argument, else compact JSON. */
export function shortArgs(tool: string, args: unknown): string {
  const a = (args && typeof args === "object" ? args : {}) as Record<string, unknown>;
  if (tool === "task") {
    const type = typeof a.subagent_type === "string" ? a.subagent_type : "subagent";
    return `${type}: ${oneLine(String(a.description ?? ""))}`;
  }
  const key = MAIN_ARGS.find((k) => typeof a[k] === "string");
  if (key) return oneLine(a[key] as string);
  const json = JSON.stringify(a);
  return json === "{}" ? "" : oneLine(json);
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ⏎ ");
}

/** How many lines of a tool result show before the rest folds away. */
export const FOLDED_LINES = 3;

/** A tool result folded to `max` lines; `folded` says how many lines hide behind ctrl+o. */
export function foldedResult(
  output: string,
  tone: Tone,
  indent: number,
  max = FOLDED_LINES,
): { lines: Line[]; folded: number } {
  const all = output.replace(/\n+$/, "").split("\n");
  const shown = all.slice(0, max);
  const lines: Line[] = shown.map((text, i) => ({
    text: `${i === 0 ? "⎿ " : "  "}${text}`,
    tone,
    indent: indent + 2,
    truncate: true,
  }));
  const folded = all.length - shown.length;
  if (folded > 0)
    lines.push({
      text: `  … +${folded} lines (ctrl+o shows all)`,
      tone: "dim",
      indent: indent + 2,
    });
  return { lines, folded };
}

/** How many diff lines show before the rest is summed up. */
const DIFF_LINES = 60;

/** A unified diff (from the `diff` package) as coloured lines, its file headers dropped. */
export function diffLines(diff: string, indent = 0): Line[] {
  const body = diff
    .split("\n")
    .filter(
      (l) =>
        !/^(Index: |={10,}|--- |\+\+\+ |\\ No newline)/.test(l) && !(l === "" || l === undefined),
    );
  const lines: Line[] = body.slice(0, DIFF_LINES).map((text) => ({
    text,
    indent: indent + 2,
    tone: text.startsWith("@@")
      ? "hunk"
      : text.startsWith("+")
        ? "add"
        : text.startsWith("-")
          ? "del"
          : "plain",
  }));
  if (body.length > DIFF_LINES)
    lines.push({
      text: `… +${body.length - DIFF_LINES} diff lines`,
      tone: "dim",
      indent: indent + 2,
    });
  return lines;
}

/** "1 turn", "2 turns". */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** A token count short: 950, 12.3k, 1.2M. */
export function tokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** USD short: $0.0123, or "cost ?" when a model's price is unknown. */
export function usd(cost: number | null | undefined): string {
  if (cost === null || cost === undefined) return "cost ?";
  if (cost > 0 && cost < 0.0001) return "<$0.0001";
  return `$${cost < 1 ? cost.toFixed(4) : cost.toFixed(2)}`;
}

/** A horizontal bar of `width` cells, `share` (0..1) of it filled. */
export function bar(share: number, width: number): string {
  const filled = Math.max(0, Math.min(width, Math.round(share * width)));
  return `${"█".repeat(filled)}${"░".repeat(width - filled)}`;
}
