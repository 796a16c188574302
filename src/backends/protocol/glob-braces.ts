import { parseClass } from "./glob-segment.js";

/**
 * Brace expansion as shells do it, before any matching: `{a,b}` lists alternatives (nested
 * groups too), `{1..3}`, `{01..10}`, `{1..9..2}` and `{a..e}` are ranges; a group with neither
 * a comma nor a range (`{a}`, `{}`) and an unclosed `{` stay literal, and a `\` escapes.
 * The count of results is checked before anything is built, so `{1..999999}` costs nothing.
 */

/** The most patterns one glob may expand to. */
export const MAX_GLOB_ALTERNATIVES = 256;

/** What `expandBraces` answers: the brace-free patterns, or why there would be too many. */
export type BraceExpansion = { ok: true; patterns: string[] } | { ok: false; reason: string };

/**
 * Every brace-free pattern `text` stands for, in order.
 *
 * @example
 * expandBraces("/logs/{2023..2025}/*.log") // { ok: true, patterns: ["/logs/2023/*.log", "/logs/2024/*.log", "/logs/2025/*.log"] }
 */
export function expandBraces(text: string, limit = MAX_GLOB_ALTERNATIVES): BraceExpansion {
  const patterns = expandWithin(text, limit);
  if (patterns) return { ok: true, patterns };
  return {
    ok: false,
    reason: `it expands to more than ${limit} patterns (braces multiply); use a wildcard such as * or fewer alternatives`,
  };
}

// The expansions of `text`, or undefined past `limit` (checked before building each product).
function expandWithin(text: string, limit: number): string[] | undefined {
  const group = findGroup(text, limit);
  if (!group) return [text];
  if (group === TOO_LARGE) return undefined;
  const tails = expandWithin(text.slice(group.end), limit);
  if (!tails) return undefined;
  const options: string[] = [];
  for (const option of group.options) {
    const expanded = group.range ? [option] : expandWithin(option, limit);
    if (!expanded || (options.length + expanded.length) * tails.length > limit) return undefined;
    options.push(...expanded);
  }
  const head = text.slice(0, group.start);
  return options.flatMap((option) => tails.map((tail) => head + option + tail));
}

/**
 * What a shell would read literally in `text` although it looks like syntax: an unclosed
 * `{` or `[`, or a `{...}` with neither a comma nor a range. Permission rules refuse these
 * (a typo there would be a silent hole); `undefined` when there are none.
 *
 * @example
 * literalSyntax("/logs/{2024}") // 'the group "{2024}" has no comma or range, so it matches literally'
 */
export function literalSyntax(text: string): string | undefined {
  const { groups, unclosedBrace, unclosedBracket } = scanBraces(text);
  if (unclosedBracket) return 'an unclosed "[" matches literally (write [[] for a literal "[")';
  if (unclosedBrace) return 'an unclosed "{" matches literally (write [{] for a literal "{")';
  for (const [start, scanned] of groups) {
    if (groupOf(text, start, scanned, MAX_GLOB_ALTERNATIVES)) continue;
    const group = text.slice(start, scanned.close + 1);
    return `the group ${JSON.stringify(group)} has no comma or range, so it matches literally (write [{] and [}] for literal braces)`;
  }
  return undefined;
}

/**
 * True when a `{...}` group of `text` holds a "/", so its alternatives differ in depth.
 *
 * @example
 * braceHoldsSlash("a/{b/c,d}") // true
 */
export function braceHoldsSlash(text: string): boolean {
  for (const [start, { close }] of scanBraces(text).groups) {
    if (text.slice(start, close).includes("/")) return true;
  }
  return false;
}

interface Scanned {
  close: number;
  /** The commas of the group's own level. */
  commas: number[];
}

// Every closed "{...}" by its start, in order, in one pass (escapes and brackets skipped).
function scanBraces(text: string): {
  groups: Map<number, Scanned>;
  unclosedBrace: boolean;
  unclosedBracket: boolean;
} {
  const groups = new Map<number, Scanned>();
  const open: { start: number; commas: number[] }[] = [];
  let unclosedBracket = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === "[") {
      const end = parseClass(text, i)?.end;
      if (end === undefined) unclosedBracket = true;
      else i = end - 1;
    } else if (c === "{") open.push({ start: i, commas: [] });
    else if (c === "," && open.length > 0) open.at(-1)!.commas.push(i);
    else if (c === "}" && open.length > 0) {
      const { start, commas } = open.pop()!;
      groups.set(start, { close: i, commas });
    }
  }
  const ordered = new Map([...groups].sort((x, y) => x[0] - y[0]));
  return { groups: ordered, unclosedBrace: open.length > 0, unclosedBracket };
}

interface Group {
  start: number;
  end: number;
  options: string[];
  /** True when `options` are the values of a range (`{1..3}`), already final. */
  range: boolean;
}

const TOO_LARGE = Symbol("too large");

// The first group with a comma or a range; the `{` of any other group stays literal.
function findGroup(text: string, limit: number): Group | typeof TOO_LARGE | undefined {
  for (const [start, scanned] of scanBraces(text).groups) {
    const group = groupOf(text, start, scanned, limit);
    if (group) return group;
  }
  return undefined;
}

function groupOf(
  text: string,
  start: number,
  { close, commas }: Scanned,
  limit: number,
): Group | typeof TOO_LARGE | undefined {
  if (commas.length === 0) {
    const range = rangeOf(text.slice(start + 1, close), limit);
    if (range === TOO_LARGE) return TOO_LARGE;
    return range && { start, end: close + 1, options: range, range: true };
  }
  const cuts = [start, ...commas, close];
  const options = cuts.slice(1).map((cut, k) => text.slice(cuts[k]! + 1, cut));
  return { start, end: close + 1, options, range: false };
}

const NUMERIC = /^([+-]?\d+)\.\.([+-]?\d+)(?:\.\.([+-]?\d+))?$/;
const ALPHA = /^([a-zA-Z])\.\.([a-zA-Z])(?:\.\.([+-]?\d+))?$/;
const ZERO_PADDED = /^[+-]?0\d/;

// The values of a range body ("1..3", "a..e", "01..10..2"), counted before any is built.
function rangeOf(body: string, limit: number): string[] | typeof TOO_LARGE | undefined {
  const numeric = NUMERIC.exec(body);
  const match = numeric ?? ALPHA.exec(body);
  if (!match) return undefined;
  const [, first, last, by] = match as unknown as [string, string, string, string | undefined];
  const from = numeric ? Number(first) : first.codePointAt(0)!;
  const to = numeric ? Number(last) : last.codePointAt(0)!;
  const step = Math.abs(Number(by ?? 1)) || 1;
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to)) return TOO_LARGE;
  const count = Math.floor(Math.abs(to - from) / step) + 1;
  if (count > limit) return TOO_LARGE;
  const width =
    ZERO_PADDED.test(first) || ZERO_PADDED.test(last)
      ? Math.max(first.replace(/^[+-]/, "").length, last.replace(/^[+-]/, "").length)
      : 0;
  const direction = to >= from ? 1 : -1;
  const values: string[] = [];
  for (let k = 0; k < count; k++) {
    const value = from + direction * k * step;
    if (!numeric) values.push(String.fromCodePoint(value));
    else values.push((value < 0 ? "-" : "") + String(Math.abs(value)).padStart(width, "0"));
  }
  return values;
}
