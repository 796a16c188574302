import type { DeleteDecision, FileOperation, PermissionRule, RuleMatch } from "./types.js";

/** What a message needs of a decision: the deciding rule and its position. */
export interface DecidingRule {
  rule?: PermissionRule;
  index?: number;
  pattern?: string;
}

const MAX_RULES_NAMED = 3;

/**
 * The model-facing one-line refusal for a read or write blocked by a rule. Rules are
 * numbered from 1 in text ("rule 1" is `permissions[0]`). An `interrupt` rule reads as
 * needing approval (for when approval is unavailable or was refused). Takes the decision
 * of `decide` as is.
 *
 * @example
 * permissionDeniedMessage("write", "/policies/a.md", decide(rules, "write", "/policies/a.md"))
 * // "Permission denied: write to /policies/a.md is blocked by rule 1 (deny write /policies/**)."
 */
export function permissionDeniedMessage(
  operation: FileOperation,
  path: string,
  decision: DecidingRule,
): string {
  const action = operation === "read" ? `read of ${path}` : `write to ${path}`;
  const { rule, index } = decision;
  if (!rule || index === undefined) return `Permission denied: ${action}.`;
  const named = describeRule({ rule, index, pattern: decision.pattern }, operation);
  return `Permission denied: ${action} ${verb(rule.mode)} ${named}.`;
}

/**
 * The model-facing one-line refusal for a delete, naming the blocking rules (at most three,
 * then a count).
 *
 * @example
 * deleteDeniedMessage("/policies", decideDelete(rules, "/policies"))
 * // "Permission denied: removing /policies is blocked by rule 2 (deny write /policies/**)."
 */
export function deleteDeniedMessage(
  path: string,
  decision: Pick<DeleteDecision, "mode" | "blocking">,
): string {
  const relevant = decision.blocking.filter((match) => match.rule.mode === decision.mode);
  const named = relevant.slice(0, MAX_RULES_NAMED).map((m) => describeRule(m, "write"));
  const more = relevant.length - named.length;
  if (named.length === 0) return `Permission denied: removing ${path}.`;
  const list = named.join(", ") + (more > 0 ? ` and ${more} more` : "");
  return `Permission denied: removing ${path} ${verb(decision.mode)} ${list}.`;
}

/**
 * A rule as shown to the model: `rule 2 (deny write /policies/**)`.
 *
 * @example
 * describeRule({ rule, index: 1, pattern: "/policies/**" }, "write") // "rule 2 (deny write /policies/**)"
 */
export function describeRule(
  match: Pick<RuleMatch, "rule" | "index"> & { pattern?: string | undefined },
  operation: FileOperation,
): string {
  const pattern = match.pattern ?? match.rule.paths.join(", ");
  return `rule ${match.index + 1} (${match.rule.mode} ${operation} ${pattern})`;
}

function verb(mode: string): string {
  return mode === "interrupt" ? "needs human approval under" : "is blocked by";
}
