/**
 * Path permissions for the file tools: ordered `allow` / `deny` / `interrupt` rules on
 * `read` and `write`, pure functions only (the filesystem middleware wires them in). Every
 * name here is public API, re-exported by the package root and `delve/backend`.
 *
 * Semantics in brief: first matching rule wins, no match allows; paths are normalised
 * before matching; a rule matching a path also covers everything under it (so `/secrets`
 * = `/secrets/` = `/secrets/**`, and `**` includes dot-files); matching is case-sensitive;
 * a delete is a write checked against its whole subtree; listings and grep hide what cannot
 * be read without approval; rule paths and decided paths are compared in Unicode NFC; an
 * earlier, less strict rule that covers a later one's paths is refused by
 * `validatePermissions`; a sandbox can enforce literal rules only.
 *
 * @example
 * const rules = validatePermissions([{ operations: ["read"], paths: ["/secrets/**"], mode: "deny" }]);
 * decide(rules, "read", "/secrets/.env").mode // "deny"
 */

export { decide } from "./decide.js";
export { decideDelete } from "./delete.js";
export { canRead } from "./filter.js";
export { validatePermissions } from "./rule-set.js";
export { literalRuleTargets } from "./sandbox-targets.js";
export type {
  DeleteDecision,
  FileOperation,
  PermissionDecision,
  PermissionMode,
  PermissionRule,
  RuleMatch,
  SandboxTargets,
  UnenforceableRule,
} from "./types.js";
