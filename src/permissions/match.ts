/**
 * How a rule path matches a virtual path. One uniform rule: a pattern matches a path when
 * its glob matches the path or one of the path's ancestors, so what a rule protects it
 * protects entirely (a hidden directory never has readable contents). Hence `/secrets`,
 * `/secrets/` and `/secrets/**` are the same rule, and `**` matches dot-files. Matching is
 * case-sensitive, like every backend's virtual paths.
 */
import { compileGlob, type GlobMatcher } from "../backends/protocol/glob.js";
import { expandBraces } from "../backends/protocol/glob-braces.js";
import { isUnder } from "../backends/protocol/paths.js";
import { GLOB_CHARS } from "./normalize.js";
import type { FileOperation, PermissionRule } from "./types.js";
import { validateRule } from "./validate.js";

/** A rule path ready for matching. */
export interface CompiledPattern {
  /** The normalised rule path, as shown in messages ("/secrets/**"). */
  source: string;
  /** The equivalent path without trailing `**` segments ("/secrets"); "/" for "/**". */
  effective: string;
  /** True when `effective` has no wildcard: it is then a plain directory-or-file prefix. */
  literal: boolean;
  segments: string[];
  /**
   * The plain paths the pattern stands for when it has no wildcard but braces
   * (`/logs/{2023..2025}/**` is /logs/2023, /logs/2024, /logs/2025); `[effective]` when literal.
   */
  literals?: readonly string[];
  /** The glob of `effective` without its leading "/" (wildcard patterns only). */
  glob?: GlobMatcher;
}

/** A validated rule with its patterns compiled. */
export interface CompiledRule {
  rule: PermissionRule;
  index: number;
  operations: ReadonlySet<FileOperation>;
  patterns: CompiledPattern[];
}

/**
 * Compiles a normalised rule path.
 *
 * @example
 * compilePattern("/secrets/**").effective // "/secrets"
 */
export function compilePattern(source: string): CompiledPattern {
  const segments = source.split("/").filter((s) => s !== "");
  // "X/**" matches X's descendants and, by the ancestor rule, X itself: it is exactly X.
  while (segments.at(-1) === "**") segments.pop();
  const effective = `/${segments.join("/")}`;
  const literal = !GLOB_CHARS.test(effective);
  const glob = literal ? undefined : compileGlob(effective.slice(1), { dot: true });
  const literals = literal ? [effective] : braceLiterals(source);
  return {
    source,
    effective,
    literal,
    segments,
    ...(literals ? { literals } : {}),
    ...(glob ? { glob } : {}),
  };
}

// The plain paths of a pattern whose only syntax is braces, or undefined.
function braceLiterals(source: string): string[] | undefined {
  const expanded = expandBraces(source);
  if (!expanded.ok || expanded.patterns.length < 2) return undefined;
  const paths = new Set<string>();
  for (const alternative of expanded.patterns) {
    const compiled = compilePattern(alternative);
    if (!compiled.literal) return undefined;
    paths.add(compiled.effective);
  }
  return [...paths];
}

/**
 * True when the pattern matches `path` (normalised: absolute, no "." or ".." segments) or
 * one of its ancestors.
 *
 * @example
 * patternMatches(compilePattern("/secrets/**"), "/secrets/.env/key") // true
 */
export function patternMatches(pattern: CompiledPattern, path: string): boolean {
  if (pattern.literal || !pattern.glob) return isUnder(path, pattern.effective);
  // The root is never tested ("*" would match its empty name and swallow everything).
  return pattern.glob.testPathOrAncestor(path.slice(1));
}

/**
 * True when the pattern matches some path strictly below `dir` that `dir` itself does not
 * make it match: the question a recursive delete asks ("is anything under here protected?").
 *
 * @example
 * patternReachesBelow(compilePattern("/policies/**"), "/") // true
 */
export function patternReachesBelow(pattern: CompiledPattern, dir: string): boolean {
  const target = dir.split("/").filter((s) => s !== "");
  const { segments } = pattern;
  const seen = new Set<number>();
  // Can segments[p..] match target[t..] followed by at least one more segment?
  const reach = (p: number, t: number): boolean => {
    const key = p * (target.length + 1) + t;
    if (seen.has(key)) return false;
    seen.add(key);
    if (t === target.length) return p < segments.length;
    if (p === segments.length) return false;
    const segment = segments[p]!;
    if (segment === "**") return reach(p + 1, t) || reach(p, t + 1);
    return segmentMatches(segment, target[t]!) && reach(p + 1, t + 1);
  };
  return reach(0, 0);
}

const compiledRules = new WeakMap<object, CompiledRule>();

/**
 * Compiles rules for matching, validating any that `validatePermissions` has not already
 * returned (throws `ConfigurationError` `INVALID_PERMISSION`). Cached per rule object, so a
 * rule must not be mutated after use (`validatePermissions` returns frozen rules).
 */
export function compileRules(rules: readonly PermissionRule[]): CompiledRule[] {
  // A listing decides every entry against the same list: reuse its compiled form while the
  // list still holds the same rule objects.
  const known = compiledLists.get(rules);
  if (known && known.length === rules.length && known.every((c, i) => c.rule === rules[i])) {
    return known;
  }
  const compiled = compileEach(rules);
  compiledLists.set(rules, compiled);
  return compiled;
}

const compiledLists = new WeakMap<readonly PermissionRule[], CompiledRule[]>();

function compileEach(rules: readonly PermissionRule[]): CompiledRule[] {
  return rules.map((raw, index) => {
    const cached = compiledRules.get(raw);
    if (cached && cached.index === index) return cached;
    const rule = validateRule(raw, index);
    const compiled: CompiledRule = {
      rule: raw,
      index,
      operations: new Set(rule.operations),
      patterns: rule.paths.map(compilePattern),
    };
    compiledRules.set(raw, compiled);
    return compiled;
  });
}

/** The first pattern of `rule` that matches `path`, if any. */
export function firstMatchingPattern(
  rule: CompiledRule,
  path: string,
): CompiledPattern | undefined {
  return rule.patterns.find((pattern) => patternMatches(pattern, path));
}

function segmentMatches(segment: string, name: string): boolean {
  if (!GLOB_CHARS.test(segment)) return segment === name;
  return compileGlob(segment, { dot: true }).test(name);
}
