import { checkVirtualPath } from "../backends/protocol/paths.js";
import {
  FILE_TOOL_PATH_ARG,
  FILE_WRITE_TOOLS,
  type ParsedRule,
  parseRule,
  type RuleKind,
  SHELL_TOOL,
} from "./rule-syntax.js";
import { denyCandidates, parseShellLine, showWord } from "./shell-commands.js";

/**
 * `delve run`'s approval policy by argument. Deny beats ask beats allow, then the mode
 * decides: `ask` asks for every file write, every `execute` and every tool Delve does not
 * know to be read-only; `edits` also lets file writes inside the workspace through; `yolo`
 * lets through everything no deny rule stops. Writes under `.delve/` and `.git/` (Delve's own
 * config and threads, git hooks) always ask outside `yolo`, since they would widen the policy.
 */

/** What the policy says about one tool call. */
export type RuleVerdict = "allow" | "ask" | "deny";

/** Rules by argument as written in the config: `"execute(git status*)"`, `"write_file(src/**)"`. */
export interface ApprovalRules {
  allow?: string[];
  ask?: string[];
  deny?: string[];
}

/** Rules parsed once (by `compileRules`), ready for `decideCall`. */
export interface CompiledRules {
  readonly deny: readonly ParsedRule[];
  readonly ask: readonly ParsedRule[];
  readonly allow: readonly ParsedRule[];
}

/** A tool call as the policy sees it. */
export interface RuleCall {
  name: string;
  args: Record<string, unknown>;
}

/** Where a call runs. */
export interface RuleContext {
  /** The workspace's host directory. */
  workspace: string;
  /**
   * False (the default): file-tool paths are virtual, "/" being the workspace. True: they are
   * host paths, inside the workspace only when under `workspace`.
   */
  hostPaths?: boolean;
  /** More tools known to be read-only (e.g. MCP tools marked so), allowed without asking. */
  readOnlyTools?: readonly string[];
}

/** The policy's answer: the verdict, the rule that gave it (if any), and why, for the user. */
export interface CallDecision {
  verdict: RuleVerdict;
  rule?: string;
  reason: string;
}

/** Built-in tools that read only: no mode asks for them. */
const READ_ONLY_TOOLS = new Set(["read_file", "ls", "glob", "grep", "write_todos", "task"]);
const PROTECTED_DIRS = [".delve", ".git"];

/**
 * Parses every rule once; throws a `ConfigurationError` (`INVALID_RULE`) naming the bad
 * rule, its list, `source` (the config file) and the fix.
 */
export function compileRules(rules: ApprovalRules, source?: string): CompiledRules {
  const list = (kind: RuleKind): ParsedRule[] => {
    const texts = rules?.[kind] ?? [];
    if (!Array.isArray(texts)) return [parseRule(texts, kind, source)];
    return texts.map((text) => parseRule(text, kind, source));
  };
  return { deny: list("deny"), ask: list("ask"), allow: list("allow") };
}

/** The workspace-relative path a file-tool call touches, or why it has none. */
function relativePath(
  call: RuleCall,
  ctx: RuleContext,
): { ok: true; path: string } | { ok: false; reason: string } {
  const key = FILE_TOOL_PATH_ARG[call.name]!;
  const raw = call.args[key] ?? (key === "path" ? "/" : undefined);
  if (typeof raw !== "string") return { ok: false, reason: `no ${key} argument` };
  let input = raw;
  if (ctx.hostPaths) {
    const root = ctx.workspace.replace(/\/+$/, "");
    if (input.startsWith("/") && input !== root && !input.startsWith(`${root}/`))
      return { ok: false, reason: `${raw} is outside the workspace` };
    input = input === root ? "/" : input.startsWith(`${root}/`) ? input.slice(root.length) : input;
  }
  const checked = checkVirtualPath(input);
  if (!checked.ok) return { ok: false, reason: checked.reason };
  return { ok: true, path: checked.path.slice(1) };
}

function firstMatch(rules: readonly ParsedRule[], tool: string, subjects: string[]) {
  return rules.find(
    (rule) => rule.tool === tool && (!rule.match || subjects.some((s) => rule.match!(s))),
  );
}

function decideFile(compiled: CompiledRules, mode: string, call: RuleCall, ctx: RuleContext) {
  const at = relativePath(call, ctx);
  const subjects = at.ok ? [at.path] : [];
  const deny = firstMatch(compiled.deny, call.name, subjects);
  if (deny) return { verdict: "deny" as const, rule: deny.text, reason: `denied by ${deny.text}` };
  const ask = firstMatch(compiled.ask, call.name, subjects);
  if (ask) return { verdict: "ask" as const, rule: ask.text, reason: `${ask.text} asks` };
  if (!at.ok) {
    if (mode === "yolo") return { verdict: "allow" as const, reason: "yolo mode" };
    return { verdict: "ask" as const, reason: `the path cannot be checked: ${at.reason}` };
  }
  const isProtected = PROTECTED_DIRS.some((d) => at.path === d || at.path.startsWith(`${d}/`));
  const writes = FILE_WRITE_TOOLS.has(call.name);
  if (writes && isProtected && mode !== "yolo")
    return { verdict: "ask" as const, reason: `${at.path} is under a protected folder` };
  const allow = firstMatch(compiled.allow, call.name, subjects);
  if (allow)
    return { verdict: "allow" as const, rule: allow.text, reason: `allowed by ${allow.text}` };
  if (!writes) return { verdict: "allow" as const, reason: "reads are allowed" };
  if (mode === "yolo") return { verdict: "allow" as const, reason: "yolo mode" };
  if (mode === "edits")
    return { verdict: "allow" as const, reason: "edits mode: a write inside the workspace" };
  return { verdict: "ask" as const, reason: `ask mode: ${call.name} changes ${at.path}` };
}

/** True when a redirect target lies outside the workspace or in a protected folder. */
function redirectProblem(target: string): string | undefined {
  if (target === "/dev/null") return undefined;
  if (/^[~$`]/.test(target)) return `the redirect target ${target} is outside the workspace`;
  const checked = checkVirtualPath(target);
  if (target.startsWith("/") || !checked.ok)
    return `the redirect target ${target} is outside the workspace`;
  const path = checked.path.slice(1);
  if (PROTECTED_DIRS.some((d) => path === d || path.startsWith(`${d}/`)))
    return `the redirect target ${target} is under a protected folder`;
  return undefined;
}

function decideShell(compiled: CompiledRules, mode: string, call: RuleCall): CallDecision {
  const line = call.args.command;
  if (typeof line !== "string" || line.trim() === "") {
    if (mode === "yolo") return { verdict: "allow", reason: "yolo mode" };
    return { verdict: "ask", reason: "the call has no command" };
  }
  const eager = denyCandidates(line);
  const views = eager.flatMap((words) => [words.join(" "), words.map(showWord).join(" ")]);
  const deny = firstMatch(compiled.deny, SHELL_TOOL, views);
  if (deny) return { verdict: "deny", rule: deny.text, reason: `denied by ${deny.text}` };
  const ask = firstMatch(compiled.ask, SHELL_TOOL, views);
  if (ask) return { verdict: "ask", rule: ask.text, reason: `${ask.text} asks` };
  const parsed = parseShellLine(line);
  const problems = [...parsed.hazards];
  for (const command of parsed.commands) {
    problems.push(...command.hazards);
    for (const target of command.redirects) {
      const problem = redirectProblem(target);
      if (problem) problems.push(problem);
    }
  }
  if (mode === "yolo") {
    const denies = compiled.deny.some((r) => r.tool === SHELL_TOOL && r.match);
    if (parsed.opaque && denies)
      return {
        verdict: "ask",
        reason: `the command cannot be checked against the deny rules: ${problems[0] ?? "it hides code"}`,
      };
    return { verdict: "allow", reason: "yolo mode" };
  }
  if (problems.length > 0)
    return { verdict: "ask", reason: `no rule can vouch for it: ${unique(problems).join("; ")}` };
  const used: string[] = [];
  for (const command of parsed.commands) {
    const subject = command.words.map(showWord).join(" ");
    const allow = firstMatch(compiled.allow, SHELL_TOOL, [subject]);
    if (!allow) return { verdict: "ask", reason: `no allow rule matches: ${subject}` };
    if (!used.includes(allow.text)) used.push(allow.text);
  }
  if (used.length === 0) return { verdict: "ask", reason: "the command is empty" };
  return { verdict: "allow", rule: used.join(", "), reason: `allowed by ${used.join(", ")}` };
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}

/**
 * Decides one call under the rules and the mode. Never throws: a call the rules cannot
 * read (a missing argument, a path the tools refuse, a shell line with `$(...)`) asks, and
 * only a deny rule ever denies.
 */
export function decideCall(
  compiled: CompiledRules,
  mode: "ask" | "edits" | "yolo",
  call: { name: string; args: Record<string, unknown> },
  ctx: { workspace: string } & Partial<RuleContext>,
): { verdict: RuleVerdict; rule?: string; reason: string } {
  const args = call.args && typeof call.args === "object" ? call.args : {};
  const safeCall = { name: call.name, args };
  if (call.name === SHELL_TOOL) return decideShell(compiled, mode, safeCall);
  if (call.name in FILE_TOOL_PATH_ARG) return decideFile(compiled, mode, safeCall, ctx);
  const deny = firstMatch(compiled.deny, call.name, []);
  if (deny) return { verdict: "deny", rule: deny.text, reason: `denied by ${deny.text}` };
  const ask = firstMatch(compiled.ask, call.name, []);
  if (ask) return { verdict: "ask", rule: ask.text, reason: `${ask.text} asks` };
  const allow = firstMatch(compiled.allow, call.name, []);
  if (allow) return { verdict: "allow", rule: allow.text, reason: `allowed by ${allow.text}` };
  if (READ_ONLY_TOOLS.has(call.name) || ctx.readOnlyTools?.includes(call.name))
    return { verdict: "allow", reason: "a read-only tool" };
  if (mode === "yolo") return { verdict: "allow", reason: "yolo mode" };
  return { verdict: "ask", reason: `${mode} mode: ${call.name} is not known to be read-only` };
}

function escapePattern(text: string): string {
  return text.replace(/[\\*]/g, "\\$&");
}

/**
 * One "always allow" rule per command of the call, each as narrow as it can be: the exact
 * command (`execute(git status)`) or the exact path (`write_file(src/app.ts)`).
 */
export function narrowestRules(
  call: { name: string; args: Record<string, unknown> },
  ctx: { workspace: string } & Partial<RuleContext>,
): string[] {
  if (call.name === SHELL_TOOL) {
    const line = typeof call.args?.command === "string" ? call.args.command : "";
    const commands = parseShellLine(line).commands.filter((c) => c.words.length > 0);
    if (commands.length === 0) return [`${SHELL_TOOL}(${escapePattern(line.trim())})`];
    return unique(
      commands.map((c) => `${SHELL_TOOL}(${escapePattern(c.words.map(showWord).join(" "))})`),
    );
  }
  if (call.name in FILE_TOOL_PATH_ARG) {
    const at = relativePath({ name: call.name, args: call.args ?? {} }, ctx);
    if (at.ok && at.path !== "")
      return [`${call.name}(${at.path.replace(/[\\*?[\]{}]/g, "\\$&")})`];
  }
  return [call.name];
}

/**
 * The narrowest rule that allows this call again: the exact command or the exact path. For
 * a line of several commands it is the first one's; `narrowestRules` gives one per command.
 */
export function narrowestRule(
  call: { name: string; args: Record<string, unknown> },
  ctx: { workspace: string },
): string {
  return narrowestRules(call, ctx)[0]!;
}
