// TEMPORARY STUB: the real module comes from branch h-run-rules (same interface); the lead
// keeps that one at merge. Only what the engine needs to run: mode defaults, no rule parsing.
import { ConfigurationError } from "../errors/configuration-error.js";

/** What the approval policy says about one call. */
export type RuleVerdict = "allow" | "ask" | "deny";
/** Rules by argument, as in the config file. */
export interface ApprovalRules {
  allow?: string[];
  ask?: string[];
  deny?: string[];
}
/** Compiled rules. */
export interface CompiledRules {
  rules: ApprovalRules;
}
/** Compiles rules (stub: checks the shape only). */
export function compileRules(rules: ApprovalRules, source = "rules"): CompiledRules {
  for (const list of [rules.allow, rules.ask, rules.deny]) {
    for (const r of list ?? []) {
      if (!/^[a-z_]+\(.*\)$/.test(r)) {
        throw new ConfigurationError("INVALID_OPTION", `${source}: bad rule ${r}`);
      }
    }
  }
  return { rules };
}
const WRITES = ["write_file", "edit_file", "delete"];
/** The approval policy for one call (stub: modes only, plus exact deny by tool name). */
export function decideCall(
  compiled: CompiledRules,
  mode: "ask" | "edits" | "yolo",
  call: { name: string; args: Record<string, unknown> },
  _ctx: { workspace: string },
): { verdict: RuleVerdict; rule?: string; reason: string } {
  const denied = (compiled.rules.deny ?? []).find((r) => r === `${call.name}(*)`);
  if (denied) return { verdict: "deny", rule: denied, reason: `denied by ${denied}` };
  if (mode === "yolo") return { verdict: "allow", reason: "yolo mode" };
  if (WRITES.includes(call.name) && mode === "edits") return { verdict: "allow", reason: "edits" };
  if (WRITES.includes(call.name) || call.name === "execute") {
    return { verdict: "ask", reason: `${mode} mode asks for ${call.name}` };
  }
  return { verdict: "allow", reason: "not gated" };
}
/** The narrowest rule that would allow this call. */
export function narrowestRule(
  call: { name: string; args: Record<string, unknown> },
  _ctx: { workspace: string },
): string {
  return `${call.name}(*)`;
}
