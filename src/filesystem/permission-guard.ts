import {
  approvedReadRoots,
  isPathApproved,
  type PathApproval,
  type PathApprovalGate,
} from "../approval/scope.js";
import {
  activePathPolicy,
  type PathPolicy,
  type PolicyOperation,
  withPathPolicy,
} from "../backends/protocol/path-policy.js";
import { checkVirtualPath, isUnder } from "../backends/protocol/paths.js";
import type { BackendProtocol, PathRestrictable } from "../backends/protocol/protocol.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { decide } from "../permissions/decide.js";
import { decideDelete } from "../permissions/delete.js";
import {
  deleteDeniedMessage,
  describeRule,
  permissionDeniedMessage,
} from "../permissions/message.js";
import { literalRuleTargets } from "../permissions/sandbox-targets.js";
import type { PermissionRule } from "../permissions/types.js";
import { ALLOW_ALL, type FsGuard } from "./fs-context.js";
import { pathOrError } from "./tools/tool-output.js";

/**
 * Turns validated permission rules into the checks every file tool runs before it touches
 * the backend: first matching rule wins, deletes are checked against their whole subtree,
 * and listings and grep drop what may not be read. A path whose rule mode is `interrupt`
 * passes only inside the approval scope of the tool call a human approved for exactly that
 * operation and path (see approval-scope.ts); `deny` refuses whatever was approved. The
 * same decisions reach the backend as its path policy (see `policedBackend`).
 */
export function guardFromRules(rules: readonly PermissionRule[]): FsGuard {
  if (rules.length === 0) return ALLOW_ALL;
  const policy = pathPolicyFromRules(rules);
  const message = (operation: PolicyOperation, path: string) => {
    const refused = policy.refusal(operation, path);
    return refused === undefined ? undefined : `Permission denied: ${refused}`;
  };
  return {
    read: (path) => message("read", path),
    write: (path) => message("write", path),
    delete: (path) => message("delete", path),
    visibleInfos: (infos) => infos.filter((info) => policy.shows(info.path)),
    visibleMatches: (matches) => {
      const verdicts = new Map<string, boolean>();
      return matches.filter((m) => {
        let shown = verdicts.get(m.path);
        if (shown === undefined) {
          shown = policy.shows(m.path);
          verdicts.set(m.path, shown);
        }
        return shown;
      });
    },
    shows: (path) => policy.shows(path),
    policy,
  };
}

const PREFIX = "Permission denied: ";

/**
 * The rules as a backend path policy: `refusal` is the guard's refusal (without its
 * "Permission denied: " prefix), `shows` is `canRead`, widened inside an approved read of a
 * directory to the entries below it that need approval (the human approved that listing).
 *
 * @example
 * pathPolicyFromRules(rules).refusal("read", "/secrets/.env") // "read of /secrets/.env is blocked by rule 1 (...)."
 */
export function pathPolicyFromRules(rules: readonly PermissionRule[]): PathPolicy {
  const strip = (text: string) => (text.startsWith(PREFIX) ? text.slice(PREFIX.length) : text);
  return {
    refusal: (operation, path) => {
      if (operation === "delete") {
        const decision = decideDelete(rules, path);
        if (decision.mode === "allow") return undefined;
        if (decision.mode === "interrupt" && isPathApproved("delete", path)) return undefined;
        return strip(deleteDeniedMessage(path, decision));
      }
      const decision = decide(rules, operation, path);
      if (decision.mode === "allow") return undefined;
      if (decision.mode === "interrupt" && isPathApproved(operation, path)) return undefined;
      return strip(permissionDeniedMessage(operation, path, decision));
    },
    shows: (path) => {
      const decision = decide(rules, "read", path);
      if (decision.mode === "allow") return true;
      if (decision.mode !== "interrupt") return false;
      const roots = approvedReadRoots();
      const bare = path.length > 1 ? path.replace(/\/+$/, "") : path;
      return roots.some((root) => isUnder(bare, root));
    },
  };
}

/**
 * The backend as a subagent with rules of its own must see it: every write, edit, delete and
 * upload must also pass the parent's `rules`, on the path given and (through the path policy)
 * on the path really touched, so no subagent changes a file its parent may not write. Reads
 * are left to the subagent's own rules. `restrictPaths` keeps the confinement.
 *
 * @example
 * const childBackend = writesConfinedTo(parentBackend, parentRules);
 */
export function writesConfinedTo(
  backend: BackendProtocol,
  rules: readonly PermissionRule[],
): BackendProtocol {
  if (rules.length === 0) return backend;
  const parent = pathPolicyFromRules(rules);
  const combined = (): PathPolicy => {
    const own = activePathPolicy();
    return {
      refusal: (operation, path) =>
        (operation === "read" ? undefined : parent.refusal(operation, path)) ??
        own?.refusal(operation, path),
      shows: (path) => own?.shows(path) ?? true,
    };
  };
  const refusedAt = (operation: PolicyOperation, path: unknown) => {
    const checked = typeof path === "string" ? checkVirtualPath(path) : undefined;
    const refused = checked?.ok ? parent.refusal(operation, checked.path) : undefined;
    return refused === undefined
      ? undefined
      : { code: "permission_denied" as const, message: refused };
  };
  const ops: Partial<
    Record<keyof BackendProtocol | "restrictPaths", (...args: never[]) => unknown>
  > = {
    write: (path: string, content: unknown) => {
      const error = refusedAt("write", path);
      return error ? Promise.resolve({ error }) : run("write", [path, content]);
    },
    edit: (path: string, ...rest: unknown[]) => {
      const error = refusedAt("write", path);
      return error ? Promise.resolve({ error }) : run("edit", [path, ...rest]);
    },
    delete: (path: string) => {
      const error = refusedAt("delete", path);
      return error ? Promise.resolve({ error }) : run("delete", [path]);
    },
    uploadFiles: async (files: { path: string; content: Uint8Array }[]) => {
      const errors = files.map((f) => refusedAt("write", f.path));
      const passed = files.filter((_, i) => !errors[i]);
      const answers = passed.length
        ? ((await run("uploadFiles", [passed])) as { path: string }[])
        : [];
      let next = 0;
      return files.map((f, i) =>
        errors[i] ? { path: f.path, error: errors[i] } : answers[next++],
      );
    },
    restrictPaths: (targets: unknown) =>
      writesConfinedTo(
        (backend as unknown as PathRestrictable).restrictPaths(targets as never),
        rules,
      ),
  };
  const run = (name: string, args: unknown[]) => {
    const method = (backend as unknown as Record<string, (...a: unknown[]) => unknown>)[name]!;
    return withPathPolicy(combined(), () => method.apply(backend, args));
  };
  return new Proxy(backend, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      const own = typeof prop === "string" ? ops[prop as keyof typeof ops] : undefined;
      if (own) return own;
      if (typeof prop === "string" && FILE_OPERATIONS.has(prop)) {
        return (...args: unknown[]) => run(prop, args);
      }
      return value.bind(target);
    },
  });
}

const FILE_OPERATIONS = new Set([
  "ls",
  "read",
  "write",
  "edit",
  "delete",
  "glob",
  "grep",
  "uploadFiles",
  "downloadFiles",
]);

/**
 * The backend the file tools call: every file operation runs with `policy` in force, so the
 * backend judges the path it really touches (a symlink's target, a route's path) and drops
 * what may not be read inside its walk, before caps and counts. Everything else (`execute`,
 * facts such as `restrictPaths`) is the backend's own.
 *
 * @example
 * const backend = policedBackend(new FilesystemBackend({ rootDir }), pathPolicyFromRules(rules));
 */
export function policedBackend(backend: BackendProtocol, policy: PathPolicy): BackendProtocol {
  return new Proxy(backend, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      if (typeof prop === "string" && FILE_OPERATIONS.has(prop)) {
        return (...args: unknown[]) => withPathPolicy(policy, () => value.apply(target, args));
      }
      return value.bind(target);
    },
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
 * put in `interrupt` mode, what to ask a human. glob and grep never ask (they refuse a root
 * that needs approval and hide what does inside a walk); a path a tool would refuse as
 * malformed, or one a rule denies, is not asked about (the tool refuses it). Undefined when
 * no rule interrupts.
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
