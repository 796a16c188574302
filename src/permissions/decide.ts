import { compileRules, firstMatchingPattern } from "./match.js";
import { pathReadings } from "./normalize.js";
import type { FileOperation, PermissionDecision, PermissionMode, PermissionRule } from "./types.js";

/**
 * Decides one operation on one path: the first rule whose operations include `operation`
 * and one of whose paths matches wins; no match allows. The path is normalised first
 * (relative paths start at "/", "//" and "." collapse, ".." is resolved lexically and
 * stops at the root), so `secrets/.env`, `/secrets//.env` and `/x/../secrets/.env` all hit
 * a `/secrets/**` rule. A path that another layer could read differently (NUL,
 * backslashes, percent-encoding, look-alike characters) is judged under every reading and
 * the most restrictive decision wins.
 *
 * @example
 * decide([{ operations: ["read"], paths: ["/secrets/**"], mode: "deny" }], "read", "secrets/.env")
 * // { mode: "deny", path: "/secrets/.env", index: 0, pattern: "/secrets/**", rule: ... }
 */
export function decide(
  rules: readonly PermissionRule[],
  operation: FileOperation,
  path: string,
): PermissionDecision {
  const compiled = compileRules(rules);
  let worst: PermissionDecision | undefined;
  for (const reading of pathReadings(path)) {
    const decision = firstMatch(reading);
    if (!worst || severity(decision.mode) > severity(worst.mode)) worst = decision;
  }
  return worst!;

  function firstMatch(reading: string): PermissionDecision {
    for (const rule of compiled) {
      if (!rule.operations.has(operation)) continue;
      const pattern = firstMatchingPattern(rule, reading);
      if (pattern) {
        const { mode } = rule.rule;
        return { mode, path: reading, rule: rule.rule, index: rule.index, pattern: pattern.source };
      }
    }
    return { mode: "allow", path: reading };
  }
}

/** Orders modes by restriction: allow < interrupt < deny. */
export function severity(mode: PermissionMode): number {
  return mode === "deny" ? 2 : mode === "interrupt" ? 1 : 0;
}
