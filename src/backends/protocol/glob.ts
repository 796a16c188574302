import { ConfigurationError } from "../../errors/configuration-error.js";
import { expandBraces } from "./glob-braces.js";
import { compileSegment, type SegmentMatcher, segmentMatches } from "./glob-segment.js";

/**
 * Delve's one glob matcher, for the `glob` tool, grep's file filter, composite routes and
 * permission rules. The dialect: `*`, `?`, `[...]` / `[!...]` (with `[:digit:]`-style
 * classes), `{a,b}` and ranges `{1..3}` (expanded first, as shells do), `**` as a whole
 * segment (zero or more directories; elsewhere it is `*`); `\` escapes the next character.
 * Parentheses, `|`, `+`, `@` and a leading `!` are plain characters (no extglobs, no negated
 * patterns), so `/docs/(draft)` is literal and a rule can never mean its opposite. `?` and
 * brackets match one code point. Matching never backtracks beyond one star per segment:
 * a path costs at most (expanded pattern length x path length) steps for any pattern.
 */

/** Options of `compileGlob`. */
export interface GlobMatchOptions {
  /** When false (the default), `*`, `?` and `**` do not match a leading "." in a segment. */
  dot?: boolean;
}

/** A compiled glob, matched against paths without a leading "/". */
export interface GlobMatcher {
  /** True when the whole path matches. */
  test(path: string): boolean;
  /** True when the path or one of its ancestors (one segment or more) matches. */
  testPathOrAncestor(path: string): boolean;
}

/** The longest glob accepted, in UTF-16 units. */
export const MAX_GLOB_LENGTH = 1000;
/** The most characters a glob may expand to, all brace alternatives together. */
export const MAX_GLOB_EXPANDED_LENGTH = 4096;

/**
 * Why `pattern` cannot be compiled (too long, or its braces expand too far), or undefined.
 * Tools answer the model with it; `compileGlob` throws it.
 *
 * @example
 * globProblem("{1..999999}") // "it expands to more than 1000 patterns (braces multiply); ..."
 */
export function globProblem(pattern: string): string | undefined {
  return expansionOf(pattern).reason;
}

// One cache per `dot` setting, so a lookup builds no key.
const caches = [new Map<string, GlobMatcher>(), new Map<string, GlobMatcher>()] as const;

/**
 * Compiles a glob. Throws `ConfigurationError` (`INVALID_GLOB`) when `globProblem` names a
 * problem; a model's pattern is checked with `globProblem` before it reaches here.
 */
export function compileGlob(pattern: string, options: GlobMatchOptions = {}): GlobMatcher {
  const dot = options.dot ?? false;
  const cache = caches[dot ? 1 : 0];
  const known = cache.get(pattern);
  if (known) return known;
  const { alternatives, reason } = expansionOf(pattern);
  if (reason !== undefined) {
    throw new ConfigurationError("INVALID_GLOB", `glob ${JSON.stringify(pattern)}: ${reason}.`, {
      pattern,
    });
  }
  const matches = (path: string, prefix: boolean) => {
    const names = path === "" ? [] : path.split("/");
    for (const alternative of alternatives) {
      if (alternativeMatches(alternative, names, dot, prefix)) return true;
    }
    return false;
  };
  const matcher: GlobMatcher = {
    test: (path) => matches(path, false),
    testPathOrAncestor: (path) => matches(path, true),
  };
  if (cache.size > 500) cache.clear();
  cache.set(pattern, matcher);
  return matcher;
}

/**
 * One brace-free alternative: its compiled segments, whether any is `**`, and for the common
 * shape with exactly one (`src/**` + `/*.ts`) the segments before and after it.
 */
interface Alternative {
  segments: SegmentMatcher[];
  globstar: boolean;
  around?: { head: SegmentMatcher[]; tail: SegmentMatcher[] };
}

// The brace-free alternatives of `pattern`.
function expansionOf(pattern: string): { alternatives: Alternative[]; reason?: string } {
  if (pattern.length > MAX_GLOB_LENGTH) {
    return { alternatives: [], reason: `it is longer than ${MAX_GLOB_LENGTH} characters` };
  }
  const expanded = expandBraces(pattern);
  if (!expanded.ok) return { alternatives: [], reason: expanded.reason };
  const size = expanded.patterns.reduce((n, p) => n + p.length, 0);
  if (size > MAX_GLOB_EXPANDED_LENGTH) {
    return {
      alternatives: [],
      reason: `its braces expand to more than ${MAX_GLOB_EXPANDED_LENGTH} characters; use a wildcard such as * or fewer alternatives`,
    };
  }
  const alternatives = expanded.patterns.map((p) => {
    const segments = p.split("/").map(compileSegment).filter(notRepeatedGlobstar);
    const stars = segments.filter((s) => s.globstar).length;
    const at = segments.findIndex((s) => s.globstar);
    const around =
      stars === 1 ? { head: segments.slice(0, at), tail: segments.slice(at + 1) } : undefined;
    return { segments, globstar: stars > 0, ...(around ? { around } : {}) };
  });
  return { alternatives };
}

// "a/**/**/b" is "a/**/b": one globstar per run keeps the walk below linear.
function notRepeatedGlobstar(segment: SegmentMatcher, i: number, all: SegmentMatcher[]): boolean {
  return !(segment.globstar && i > 0 && all[i - 1]!.globstar);
}

/**
 * True when the segments match all of `names` or, with `prefix`, its first one or more.
 * Without `**` each name is tested once; with it, one pass per segment over the path's
 * positions tests each name at most once per segment: (segments x names) tests, never a
 * search over the ways to split the path.
 */
function alternativeMatches(
  { segments, globstar, around }: Alternative,
  names: string[],
  dot: boolean,
  prefix: boolean,
): boolean {
  if (!globstar) {
    const fits = prefix
      ? segments.length >= 1 && names.length >= segments.length
      : names.length === segments.length;
    return fits && segments.every((segment, i) => segmentMatches(segment, names[i]!, dot));
  }
  if (around && !prefix) {
    // One `**`: the head takes the first names, the tail the last, `**` all between.
    const { head, tail } = around;
    const middle = names.length - tail.length;
    if (middle < head.length) return false;
    for (let i = 0; i < names.length; i++) {
      const segment =
        i < head.length ? head[i]! : i >= middle ? tail[i - middle]! : segments[head.length]!;
      if (!segmentMatches(segment, names[i]!, dot)) return false;
    }
    return true;
  }
  // reached[t] is 1 when names[0..t) matches the segments seen so far.
  let reached: number[] = [1];
  for (const segment of segments) {
    const next: number[] = [];
    let any = false;
    for (let t = 0; t <= names.length; t++) {
      const extends_ = segment.globstar
        ? // Zero or more names: carry a reached position forward over every name it may take.
          reached[t] === 1 ||
          (t > 0 && next[t - 1] === 1 && segmentMatches(segment, names[t - 1]!, dot))
        : t > 0 && reached[t - 1] === 1 && segmentMatches(segment, names[t - 1]!, dot);
      if (extends_) {
        next[t] = 1;
        any = true;
      }
    }
    if (!any) return false;
    reached = next;
  }
  return prefix ? reached.indexOf(1, 1) > 0 : reached[names.length] === 1;
}

/** Splits `text` on `separator` outside `{...}` groups ("a/{b/c,d}" is ["a", "{b/c,d}"]). */
export function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "{") depth++;
    else if (c === "}") depth = Math.max(0, depth - 1);
    else if (c === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}
