/**
 * The vocabulary of path permissions: which file operation, on which paths, in which mode.
 * Types only; the behaviour lives in `decide.ts`, `delete.ts`, `filter.ts` and
 * `sandbox-targets.ts`.
 */

/** A file tool's operation: `ls`, `read_file`, `glob`, `grep` read; the others write. */
export type FileOperation = "read" | "write";

/**
 * What a matching rule does: `allow` (an explicit exception), `deny` (refuse, do nothing),
 * `interrupt` (pause for a human decision).
 */
export type PermissionMode = "allow" | "deny" | "interrupt";

/**
 * One rule. `paths` are absolute globs (`*`, `?`, `[...]`, `{a,b}`, `**`); a path matches a
 * rule when the glob matches it or one of its ancestors, so `/secrets`, `/secrets/**` and
 * `/secrets/` all protect the directory and everything below it. `mode` is required.
 *
 * @example
 * const rule: PermissionRule = { operations: ["write"], paths: ["/policies/**"], mode: "deny" };
 */
export interface PermissionRule {
  operations: readonly FileOperation[];
  paths: readonly string[];
  mode: PermissionMode;
}

/** A rule that decided something: the rule, its 0-based position and the path that matched. */
export interface RuleMatch {
  rule: PermissionRule;
  /** 0-based position in the rule list (`permissions[index]`). */
  index: number;
  /** The (normalised) rule path that matched. */
  pattern: string;
}

/**
 * The outcome of `decide`. `rule`, `index` and `pattern` are set when a rule matched; an
 * unmatched path is allowed and carries none of them.
 */
export interface PermissionDecision {
  mode: PermissionMode;
  /** The normalised path the decision is about. */
  path: string;
  rule?: PermissionRule;
  index?: number;
  pattern?: string;
}

/**
 * The outcome of `decideDelete`: `blocking` lists every deny or interrupt rule that protects
 * the deleted path or something under it, in rule order; `mode` is `deny` if any of them
 * denies, else `interrupt` if any interrupts, else `allow`. `rule`, `index` and `pattern`
 * repeat the first blocking rule of that mode.
 */
export interface DeleteDecision extends PermissionDecision {
  blocking: RuleMatch[];
}

/** A rule path the sandbox cannot enforce with mounts, and why. */
export interface UnenforceableRule {
  /** 0-based position in the rule list. */
  index: number;
  path: string;
  reason: string;
}

/**
 * What a mount-based sandbox must do to honour the rules for shell commands: leave `hide`
 * paths unmounted, mount `readOnly` paths read-only, and refuse to start when
 * `unenforceable` is not empty.
 */
export interface SandboxTargets {
  hide: string[];
  readOnly: string[];
  unenforceable: UnenforceableRule[];
}
