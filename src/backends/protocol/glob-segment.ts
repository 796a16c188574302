/**
 * One path segment of a glob ("*.md", "[!a]?") compiled to tokens and matched without
 * regular expressions: `*` is matched by the classic greedy scan that only ever backtracks
 * to the last star, so a segment costs at most (pattern length x name length) steps whatever
 * the pattern. Characters are code points, so `?` and `[...]` take one emoji whole.
 */

type Token =
  | { kind: "literal"; cp: number }
  | { kind: "any" }
  | { kind: "star" }
  | {
      kind: "class";
      negated: boolean;
      ranges: [number, number][];
      named: ((cp: number) => boolean)[];
    };

/** A compiled segment: its tokens, or `globstar` for a whole `**` segment. */
export type SegmentMatcher = { globstar: true } | { globstar: false; tokens: Token[] };

const DOT = 0x2e;

// POSIX classes inside brackets ("[[:digit:]]"), in their ASCII meaning.
const POSIX: Record<string, (cp: number) => boolean> = {
  alnum: (c) => POSIX.alpha!(c) || POSIX.digit!(c),
  alpha: (c) => POSIX.lower!(c) || POSIX.upper!(c),
  ascii: (c) => c < 0x80,
  blank: (c) => c === 0x20 || c === 0x09,
  cntrl: (c) => c < 0x20 || c === 0x7f,
  digit: (c) => c >= 0x30 && c <= 0x39,
  graph: (c) => c > 0x20 && c < 0x7f,
  lower: (c) => c >= 0x61 && c <= 0x7a,
  print: (c) => c >= 0x20 && c < 0x7f,
  punct: (c) => POSIX.graph!(c) && !POSIX.alnum!(c),
  space: (c) => c === 0x20 || (c >= 0x09 && c <= 0x0d),
  upper: (c) => c >= 0x41 && c <= 0x5a,
  word: (c) => POSIX.alnum!(c) || c === 0x5f,
  xdigit: (c) => POSIX.digit!(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66),
};

/**
 * The bracket expression starting at `text[start]` ("["), with the index just past its "]";
 * undefined when it is not one (no closing "]" before the end or a "/"), so "[" is literal.
 */
export function parseClass(
  text: string,
  start: number,
): { end: number; token: Extract<Token, { kind: "class" }> } | undefined {
  let i = start + 1;
  const negated = text[i] === "!" || text[i] === "^";
  if (negated) i++;
  const ranges: [number, number][] = [];
  const named: ((cp: number) => boolean)[] = [];
  let first = true;
  while (i < text.length) {
    const c = text[i];
    if (c === "/") return undefined;
    if (c === "]" && !first)
      return { end: i + 1, token: { kind: "class", negated, ranges, named } };
    first = false;
    if (c === "[" && text[i + 1] === ":") {
      const close = text.indexOf(":]", i + 2);
      const test = close > 0 ? POSIX[text.slice(i + 2, close)] : undefined;
      if (test) {
        named.push(test);
        i = close + 2;
        continue;
      }
    }
    const low = readChar(text, i);
    i = low.next;
    if (text[i] === "-" && i + 1 < text.length && text[i + 1] !== "]") {
      const high = readChar(text, i + 1);
      if (text[i + 1] === "/") return undefined;
      ranges.push([low.cp, high.cp]);
      i = high.next;
    } else {
      ranges.push([low.cp, low.cp]);
    }
  }
  return undefined;
}

// One code point at `i`, a "\" taking the next one literally.
function readChar(text: string, i: number): { cp: number; next: number } {
  const at = text[i] === "\\" && i + 1 < text.length ? i + 1 : i;
  const cp = text.codePointAt(at)!;
  return { cp, next: at + (cp > 0xffff ? 2 : 1) };
}

/** Compiles one segment of a brace-free glob (no "/"). */
export function compileSegment(text: string): SegmentMatcher {
  if (text === "**") return { globstar: true };
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "*") {
      if (tokens.at(-1)?.kind !== "star") tokens.push({ kind: "star" });
      i++;
    } else if (c === "?") {
      tokens.push({ kind: "any" });
      i++;
    } else if (c === "[" && parseClass(text, i)) {
      const parsed = parseClass(text, i)!;
      tokens.push(parsed.token);
      i = parsed.end;
    } else {
      const { cp, next } = readChar(text, i);
      tokens.push({ kind: "literal", cp });
      i = next;
    }
  }
  return { globstar: false, tokens };
}

function tokenMatches(token: Token, cp: number): boolean {
  switch (token.kind) {
    case "literal":
      return token.cp === cp;
    case "any":
      return true;
    case "class": {
      const listed =
        token.ranges.some(([low, high]) => cp >= low && cp <= high) ||
        token.named.some((test) => test(cp));
      return listed !== token.negated;
    }
    default:
      return false;
  }
}

/**
 * True when `name` (one segment) matches. Without `dot`, a leading "." must be matched by a
 * literal "." or a bracket expression that lists it, never by `*`, `?` or `[!...]`.
 */
export function segmentMatches(segment: SegmentMatcher, name: string, dot: boolean): boolean {
  if (segment.globstar) return dot || name.charCodeAt(0) !== DOT;
  const { tokens } = segment;
  if (!dot && name.charCodeAt(0) === DOT) {
    const lead = tokens[0];
    const explicit =
      lead?.kind === "literal" ||
      (lead?.kind === "class" && !lead.negated && tokenMatches(lead, DOT));
    if (!explicit) return false;
  }
  let p = 0;
  let i = 0;
  let starP = -1;
  let starI = 0;
  while (i < name.length) {
    const token = tokens[p];
    if (token?.kind === "star") {
      starP = p++;
      starI = i;
      continue;
    }
    const cp = name.codePointAt(i)!;
    if (token && tokenMatches(token, cp)) {
      p++;
      i += cp > 0xffff ? 2 : 1;
      continue;
    }
    if (starP < 0) return false;
    // Only the last star ever takes one more character: earlier stars cannot do better.
    starI += name.codePointAt(starI)! > 0xffff ? 2 : 1;
    i = starI;
    p = starP + 1;
  }
  while (tokens[p]?.kind === "star") p++;
  return p === tokens.length;
}
