import {
  approvedReadRoots,
  isPathApproved,
  type PathApproval,
  type PathApprovalGate,
} from "../approval/scope.js";
import { isUnder } from "../backends/protocol/paths.js";
import type { BackendProtocol, PathRestrictable } from "../backends/protocol/protocol.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { decide } from "../permissions/decide.js";
import { decideDelete } from "../permissions/delete.js";
import { filterFileInfos, filterGrepMatches } from "../permissions/filter.js";
import {
  deleteDeniedMessage,
  describeRule,
  permissionDeniedMessage,
} from "../permissions/message.js";
import { literalRuleTargets } from "../permissions/sandbox-targets.js";
import type { PermissionRule } from "../permissions/types.js";
import type { FsGuard } from "./fs-context.js";
import { pathOrError } from "./tools/tool-output.js";

/**
 * Turns validated permission rules into the checks every file tool runs before it touches
 * the backend: first matching rule wins, deletes are checked against their whole subtree,
 * and listings and grep drop what may not be read. A path whose rule mode is `interrupt`
 * passes only inside the approval scope of the tool call a human approved for exactly that
 * operation and path (see approval-scope.ts); `deny` refuses whatever was approved.
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
    if (decision.mode === "allow") return undefined;
    if (decision.mode === "interrupt" && isPathApproved(operation, path)) return undefined;
    return permissionDeniedMessage(operation, path, decision);
  };
  return {
    read: (path) => check("read", path),
    write: (path) => check("write", path),
    delete: (path) => {
      const decision = decideDelete(rules, path);
      if (decision.mode === "allow") return undefined;
      if (decision.mode === "interrupt" && isPathApproved("delete", path)) return undefined;
      return deleteDeniedMessage(path, decision);
    },
    visibleInfos: (infos) => withApprovedReads(rules, infos, filterFileInfos(rules, infos)),
    visibleMatches: (matches) =>
      withApprovedReads(rules, matches, filterGrepMatches(rules, matches)),
  };
}

// Inside an approved read of a directory (ls), entries below it that need approval to read
// are shown too: the human approved reading that directory. Denied entries stay hidden.
function withApprovedReads<T extends { path: string }>(
  rules: readonly PermissionRule[],
  all: readonly T[],
  visible: T[],
): T[] {
  const roots = approvedReadRoots();
  if (roots.length === 0 || visible.length === all.length) return visible;
  return all.filter((item) => {
    const decision = decide(rules, "read", item.path);
    if (decision.mode === "allow") return true;
    const path = item.path.length > 1 ? item.path.replace(/\/+$/, "") : item.path;
    return decision.mode === "interrupt" && roots.some((root) => isUnder(path, root));
  });
}

/** Where each file tool finds its path and which permission it asks for. */
const GATED_FILE_TOOLS: Record<
  string,
  { arg: string; operation: PathApproval["operation"]; fallback?: string }
> = {
  ls: { arg: "path", operation: "read", fallback: "/" },
  read_file: { arg: "file_path", operation: "read" },
  write_file: { arg: "file_path", operation: "write" },
  edit_file: { arg: "file_path", operation: "write" },
  delete: { arg: "file_path", operation: "delete" },
};

/**
 * The approval gate of a set of rules: for a call of one of `toolNames` whose path the rules
 * put in `interrupt` mode, what to ask a human. glob and grep never ask (they only hide what
 * needs approval); a path a tool would refuse as malformed, or one a rule denies, is not
 * asked about (the tool refuses it). Undefined when no rule interrupts.
 *
 * @example
 * const gate = pathApprovalGate(rules, ["write_file"]);
 * gate?.({ name: "write_file", args: { file_path: "/policies/a.md", content: "" } })
 * // { operation: "write", path: "/policies/a.md", reason: "write to /policies/a.md needs human approval under rule 1 (interrupt write /policies/**)." }
 */
export function pathApprovalGate(
  rules: readonly PermissionRule[],
  toolNames: readonly string[],
): PathApprovalGate | undefined {
  if (!rules.some((r) => r.mode === "interrupt")) return undefined;
  const names = new Set(toolNames);
  return (call) => {
    const spec = names.has(call.name) ? GATED_FILE_TOOLS[call.name] : undefined;
    if (!spec) return undefined;
    const raw = (call.args as Record<string, unknown> | undefined)?.[spec.arg] ?? spec.fallback;
    const checked = pathOrError(raw);
    if ("error" in checked) return undefined;
    const { path } = checked;
    if (spec.operation === "delete") {
      const decision = decideDelete(rules, path);
      if (decision.mode !== "interrupt") return undefined;
      const asking = decision.blocking.filter((m) => m.rule.mode === "interrupt");
      const named = asking.map((m) => describeRule(m, "write")).join(", ");
      return {
        operation: "delete",
        path,
        reason: `removing ${path} needs human approval under ${named}.`,
      };
    }
    const decision = decide(rules, spec.operation, path);
    if (decision.mode !== "interrupt" || !decision.rule || decision.index === undefined)
      return undefined;
    const action = spec.operation === "read" ? `read of ${path}` : `write to ${path}`;
    const rule = describeRule(
      { rule: decision.rule, index: decision.index, pattern: decision.pattern },
      spec.operation,
    );
    return {
      operation: spec.operation,
      path,
      reason: `${action} needs human approval under ${rule}.`,
    };
  };
}

const GATE = Symbol.for("delve.pathApprovalGate");

/** Attaches a filesystem middleware's approval gate (non-enumerable, so copies must carry it). */
export function setPathApprovalGate(middleware: object, gate: PathApprovalGate | undefined): void {
  if (gate) Object.defineProperty(middleware, GATE, { value: gate, enumerable: false });
}

/** The approval gate a filesystem middleware carries, if its rules interrupt. */
export function pathApprovalGateOf(middleware: unknown): PathApprovalGate | undefined {
  if (typeof middleware !== "object" || middleware === null) return undefined;
  return (middleware as Record<symbol, PathApprovalGate | undefined>)[GATE];
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
