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

/**
 * A compiled segment: `globstar` for a whole `**`, else its tokens cut at the stars into
 * chunks (`a?*b*c` is ["a?", "b", "c"] with stars between), each also kept as plain text
 * when it holds only literals, for a native search.
 */
export type SegmentMatcher =
  | { globstar: true }
  | { globstar: false; tokens: Token[]; chunks: Chunk[]; starred: boolean };

interface Chunk {
  tokens: Token[];
  /** The chunk's text when every token is a literal. */
  literal?: string;
}

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
  const chunks: Chunk[] = [{ tokens: [] }];
  for (const token of tokens) {
    if (token.kind === "star") chunks.push({ tokens: [] });
    else chunks.at(-1)!.tokens.push(token);
  }
  for (const chunk of chunks) {
    if (chunk.tokens.every((t) => t.kind === "literal")) {
      chunk.literal = String.fromCodePoint(...chunk.tokens.map((t) => (t as { cp: number }).cp));
    }
  }
  return { globstar: false, tokens, chunks, starred: chunks.length > 1 };
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
 * literal "." or a bracket expression that lists it, never by `*`, `?` or `[!...]`. The first
 * chunk is anchored at the start, the last at the end, and each middle chunk is placed at
 * its leftmost fit (which is never worse than a later one): no backtracking at all.
 */
export function segmentMatches(segment: SegmentMatcher, name: string, dot: boolean): boolean {
  if (segment.globstar) return dot || name.charCodeAt(0) !== DOT;
  const { tokens, chunks } = segment;
  if (!dot && name.charCodeAt(0) === DOT) {
    const lead = tokens[0];
    const explicit =
      lead?.kind === "literal" ||
      (lead?.kind === "class" && !lead.negated && tokenMatches(lead, DOT));
    if (!explicit) return false;
  }
  const first = chunks[0]!;
  if (!segment.starred) return chunkAt(first, name, 0) === name.length;
  const last = chunks.at(-1)!;
  let at = chunkAt(first, name, 0);
  const tailStart = startOfLast(last, name);
  if (at < 0 || tailStart < at || chunkAt(last, name, tailStart) !== name.length) return false;
  for (let k = 1; k < chunks.length - 1; k++) {
    at = leftmost(chunks[k]!, name, at, tailStart);
    if (at < 0) return false;
  }
  return true;
}

// Where `chunk` matches at `start`: the index after it, or -1.
function chunkAt(chunk: Chunk, name: string, start: number): number {
  if (chunk.literal !== undefined) {
    return name.startsWith(chunk.literal, start) ? start + chunk.literal.length : -1;
  }
  let i = start;
  for (const token of chunk.tokens) {
    if (i >= name.length) return -1;
    const cp = name.codePointAt(i)!;
    if (!tokenMatches(token, cp)) return -1;
    i += cp > 0xffff ? 2 : 1;
  }
  return i;
}

// The end of the leftmost match of `chunk` at or after `from` that ends by `limit`, or -1.
function leftmost(chunk: Chunk, name: string, from: number, limit: number): number {
  if (chunk.literal !== undefined) {
    const found = name.indexOf(chunk.literal, from);
    const end = found + chunk.literal.length;
    return found >= 0 && end <= limit ? end : -1;
  }
  for (let i = from; i < limit; i += name.codePointAt(i)! > 0xffff ? 2 : 1) {
    const end = chunkAt(chunk, name, i);
    if (end >= 0 && end <= limit) return end;
  }
  return chunk.tokens.length === 0 ? from : -1;
}

// Where the last chunk must start for it to end the name: one code point per token back.
function startOfLast(chunk: Chunk, name: string): number {
  if (chunk.literal !== undefined) return name.length - chunk.literal.length;
  let i = name.length;
  for (let k = 0; k < chunk.tokens.length; k++) {
    if (i <= 0) return -1;
    i--;
    if (i > 0 && isLowSurrogate(name.charCodeAt(i)) && isHighSurrogate(name.charCodeAt(i - 1))) i--;
  }
  return i;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}
