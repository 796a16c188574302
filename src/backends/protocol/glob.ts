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

const cache = new Map<string, GlobMatcher>();

/**
 * Compiles a glob. Throws `ConfigurationError` (`INVALID_GLOB`) when `globProblem` names a
 * problem; a model's pattern is checked with `globProblem` before it reaches here.
 */
export function compileGlob(pattern: string, options: GlobMatchOptions = {}): GlobMatcher {
  const dot = options.dot ?? false;
  const key = `${dot ? 1 : 0}\0${pattern}`;
  const known = cache.get(key);
  if (known) return known;
  const { alternatives, reason } = expansionOf(pattern);
  if (reason !== undefined) {
    throw new ConfigurationError("INVALID_GLOB", `glob ${JSON.stringify(pattern)}: ${reason}.`, {
      pattern,
    });
  }
  const reach = (path: string) => {
    const names = path === "" ? [] : path.split("/");
    return alternatives.map((segments) => reachable(segments, names, dot));
  };
  const matcher: GlobMatcher = {
    test: (path) => reach(path).some((ends) => ends.at(-1) === 1),
    testPathOrAncestor: (path) => reach(path).some((ends) => ends.indexOf(1, 1) > 0),
  };
  if (cache.size > 500) cache.clear();
  cache.set(key, matcher);
  return matcher;
}

/** True when `path` (no leading "/") matches `pattern`. */
export function globMatches(
  pattern: string,
  path: string,
  options: GlobMatchOptions = {},
): boolean {
  return compileGlob(pattern, options).test(path);
}

// The brace-free alternatives of `pattern`, each a list of compiled segments.
function expansionOf(pattern: string): { alternatives: SegmentMatcher[][]; reason?: string } {
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
  const alternatives = expanded.patterns.map((p) =>
    p.split("/").map(compileSegment).filter(notRepeatedGlobstar),
  );
  return { alternatives };
}

// "a/**/**/b" is "a/**/b": one globstar per run keeps the walk below linear.
function notRepeatedGlobstar(segment: SegmentMatcher, i: number, all: SegmentMatcher[]): boolean {
  return !(segment.globstar && i > 0 && all[i - 1]!.globstar);
}

/**
 * Which prefixes of `names` the segments match: entry t is 1 when names[0..t) matches.
 * One pass per segment over the path's positions, each name tested at most once per
 * segment, so many `**` cost (segments x names) tests, never a search over splits.
 */
function reachable(segments: SegmentMatcher[], names: string[], dot: boolean): Uint8Array {
  let current = new Uint8Array(names.length + 1);
  current[0] = 1;
  for (const segment of segments) {
    const next = new Uint8Array(names.length + 1);
    let any = false;
    for (let t = 0; t <= names.length; t++) {
      if (segment.globstar) {
        // Zero or more names: carry a reached position forward over every name it may take.
        if (
          current[t] === 1 ||
          (t > 0 && next[t - 1] === 1 && segmentMatches(segment, names[t - 1]!, dot))
        ) {
          next[t] = 1;
          any = true;
        }
      } else if (t > 0 && current[t - 1] === 1 && segmentMatches(segment, names[t - 1]!, dot)) {
        next[t] = 1;
        any = true;
      }
    }
    if (!any) return next;
    current = next;
  }
  return current;
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
