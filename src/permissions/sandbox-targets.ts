import { type CompiledRule, compileRules, patternMatches, patternReachesBelow } from "./match.js";
import type { FileOperation, PermissionRule, SandboxTargets, UnenforceableRule } from "./types.js";

/**
 * Maps rules onto what a mount-based sandbox can enforce for shell commands, which see the
 * workspace directly and bypass the file tools. A deny-read literal path goes to `hide`
 * (not mounted), a deny-write literal path to `readOnly` (a deny of both goes to both
 * lists); a trailing `/**` counts as literal (`/secrets/**` is `/secrets`), and so do braces
 * (`/logs/{2023..2025}` is three literal paths). Unenforceable,
 * with the reason:
 * - any other wildcard (`/a/*.md` cannot be mounted);
 * - an `interrupt` rule (a shell command cannot stop for a human decision);
 * - an `allow` rule that carves an exception out of a later deny (a mount is all or nothing).
 * A deny wholly shadowed by an earlier allow decides nothing and yields no target.
 *
 * @example
 * literalRuleTargets([{ operations: ["read"], paths: ["/secrets/**"], mode: "deny" }])
 * // { hide: ["/secrets"], readOnly: [], unenforceable: [] }
 */
export function literalRuleTargets(rules: readonly PermissionRule[]): SandboxTargets {
  const compiled = compileRules(rules);
  const targets: SandboxTargets = { hide: [], readOnly: [], unenforceable: [] };
  const refuse = (entry: UnenforceableRule) => {
    const known = targets.unenforceable.some(
      (u) => u.index === entry.index && u.path === entry.path,
    );
    if (!known) targets.unenforceable.push(entry);
  };
  for (const rule of compiled) {
    for (const pattern of rule.patterns) {
      const at = { index: rule.index, path: pattern.source };
      if (rule.rule.mode === "interrupt") {
        refuse({
          ...at,
          reason: `${label(rule)} needs a human decision, which a shell command cannot ask for`,
        });
      } else if (rule.rule.mode === "deny" && !pattern.literals) {
        refuse({
          ...at,
          reason: `the sandbox enforces literal paths by mounts; ${pattern.source} cannot be mounted`,
        });
      } else if (rule.rule.mode === "deny") {
        for (const operation of rule.operations) {
          for (const target of pattern.literals ?? []) {
            if (shadowedByEarlierAllow(compiled, rule.index, operation, target)) continue;
            const list = operation === "read" ? targets.hide : targets.readOnly;
            if (!list.includes(target)) list.push(target);
          }
        }
      } else {
        const carved = carvedDeny(compiled, rule, pattern);
        if (carved) {
          refuse({
            ...at,
            reason: `an allow that carves an exception out of ${label(carved)} cannot be enforced by mounts`,
          });
        }
      }
    }
  }
  return targets;
}

// An earlier allow matching the deny's whole directory wins for every path in it.
function shadowedByEarlierAllow(
  compiled: CompiledRule[],
  before: number,
  operation: FileOperation,
  target: string,
): boolean {
  return compiled.some(
    (earlier) =>
      earlier.index < before &&
      earlier.rule.mode === "allow" &&
      earlier.operations.has(operation) &&
      earlier.patterns.some((pattern) => patternMatches(pattern, target)),
  );
}

// A later literal deny whose directory the allow overlaps without covering it whole.
function carvedDeny(
  compiled: CompiledRule[],
  allow: CompiledRule,
  pattern: CompiledRule["patterns"][number],
): CompiledRule | undefined {
  return compiled.find(
    (later) =>
      later.index > allow.index &&
      later.rule.mode === "deny" &&
      [...allow.operations].some((operation) => later.operations.has(operation)) &&
      later.patterns.some((deny) =>
        (deny.literals ?? []).some(
          (target) => !patternMatches(pattern, target) && patternReachesBelow(pattern, target),
        ),
      ),
  );
}

function label(rule: CompiledRule): string {
  return `permissions[${rule.index}] (${rule.rule.mode} ${[...rule.operations].join("+")} ${rule.patterns.map((p) => p.source).join(", ")})`;
}
