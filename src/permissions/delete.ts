import { severity } from "./decide.js";
import { compileRules, firstMatchingPattern, patternReachesBelow } from "./match.js";
import { pathReadings } from "./normalize.js";
import type { DeleteDecision, PermissionRule, RuleMatch } from "./types.js";

/**
 * Decides a delete of `path`, which removes the path and everything under it, so it is a
 * write checked against the whole subtree. Rules are walked in order:
 * - a write rule that matches `path` itself covers the whole subtree: every path below
 *   not claimed by an earlier rule is decided by it, so the walk stops there (an allow
 *   stops with nothing more blocking; a deny or interrupt blocks);
 * - a deny or interrupt write rule that matches only something below `path` blocks
 *   (part of the subtree is protected), whatever allow rules come before it — unless an
 *   earlier rule covered the whole subtree;
 * - an allow rule that matches only something below `path` changes nothing.
 * So with `allow write /policies/drafts/**` then `deny write /policies/**`, deleting
 * `/policies/drafts` is allowed and deleting `/policies` or `/` is denied. The result names
 * every blocking rule. The path is normalised like `decide`.
 *
 * @example
 * decideDelete([{ operations: ["write"], paths: ["/policies/**"], mode: "deny" }], "/").mode // "deny"
 */
export function decideDelete(rules: readonly PermissionRule[], path: string): DeleteDecision {
  const compiled = compileRules(rules);
  const readings = pathReadings(path);
  const blocking: RuleMatch[] = [];
  for (const reading of readings) {
    for (const rule of compiled) {
      if (!rule.operations.has("write")) continue;
      const covering = firstMatchingPattern(rule, reading);
      const blocks = rule.rule.mode !== "allow";
      if (covering) {
        if (blocks)
          addBlocking(blocking, { rule: rule.rule, index: rule.index, pattern: covering.source });
        break;
      }
      if (!blocks) continue;
      const below = rule.patterns.find((pattern) => patternReachesBelow(pattern, reading));
      if (below)
        addBlocking(blocking, { rule: rule.rule, index: rule.index, pattern: below.source });
    }
  }
  blocking.sort((a, b) => a.index - b.index);
  const worst = blocking.reduce<RuleMatch | undefined>(
    (found, match) =>
      !found || severity(match.rule.mode) > severity(found.rule.mode) ? match : found,
    undefined,
  );
  if (!worst) return { mode: "allow", path: readings[0]!, blocking };
  return { mode: worst.rule.mode, path: readings[0]!, ...worst, blocking };
}

function addBlocking(list: RuleMatch[], match: RuleMatch): void {
  if (!list.some((m) => m.index === match.index)) list.push(match);
}
