import type { BackendProtocol, PathRestrictable } from "../backends/protocol.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import {
  decide,
  decideDelete,
  deleteDeniedMessage,
  filterFileInfos,
  filterGrepMatches,
  literalRuleTargets,
  type PermissionRule,
  permissionDeniedMessage,
} from "../permissions/index.js";
import type { FsGuard } from "../tools/fs-context.js";

/**
 * Turns validated permission rules into the checks every file tool runs before it touches
 * the backend: first matching rule wins, deletes are checked against their whole subtree,
 * and listings and grep drop what may not be read.
 */
export function guardFromRules(rules: readonly PermissionRule[]): FsGuard {
  if (rules.length === 0) {
    return {
      read: () => undefined,
      write: () => undefined,
      delete: () => undefined,
      visibleInfos: (infos) => infos,
      visibleMatches: (matches) => matches,
    };
  }
  const check = (operation: "read" | "write", path: string) => {
    const decision = decide(rules, operation, path);
    return decision.mode === "allow"
      ? undefined
      : permissionDeniedMessage(operation, path, decision);
  };
  return {
    read: (path) => check("read", path),
    write: (path) => check("write", path),
    delete: (path) => {
      const decision = decideDelete(rules, path);
      return decision.mode === "allow" ? undefined : deleteDeniedMessage(path, decision);
    },
    visibleInfos: (infos) => filterFileInfos(rules, infos),
    visibleMatches: (matches) => filterGrepMatches(rules, matches),
  };
}

/** Refuses rules whose interrupt mode needs human approval (not landed yet). */
export function refuseInterruptRules(rules: readonly PermissionRule[]): void {
  const index = rules.findIndex((r) => r.mode === "interrupt");
  if (index >= 0) {
    throw new ConfigurationError(
      "NOT_IMPLEMENTED",
      `permissions[${index}] uses mode "interrupt", which needs human approval; that has not landed yet. Use "deny" or "allow".`,
      { index },
    );
  }
}

/**
 * Makes sure rules leave no silent hole through `execute`: a backend that runs commands must
 * enforce them itself (the sandbox mounts literal paths hidden or read-only); otherwise, or
 * for a rule it cannot enforce, this is a construction error that says why.
 */
export function confineExecution(
  backend: BackendProtocol,
  rules: readonly PermissionRule[],
): BackendProtocol {
  if (rules.length === 0 || typeof backend.execute !== "function") return backend;
  const restrictable = backend as Partial<PathRestrictable>;
  if (typeof restrictable.restrictPaths !== "function") {
    throw new ConfigurationError(
      "UNENFORCEABLE_PERMISSIONS",
      "permissions cannot be enforced on this backend's execute: shell commands would bypass them. Use SandboxBackend (it enforces literal paths by mounts), a backend without execute, or no permissions.",
    );
  }
  const targets = literalRuleTargets(rules);
  const first = targets.unenforceable[0];
  if (first) {
    throw new ConfigurationError(
      "UNENFORCEABLE_RULE",
      `permissions[${first.index}] path ${first.path} cannot be enforced for shell commands: ${first.reason}`,
      { index: first.index, path: first.path },
    );
  }
  return restrictable.restrictPaths({ hide: targets.hide, readOnly: targets.readOnly });
}
