import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { agentInfoOf } from "../agent/agent-info.js";
import { BUILTIN_TOOL_NAMES } from "../agent/builtin-names.js";
import { type AgentTool, normalizeTools } from "../agent/user-tools.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { registeredTools } from "../langchain-seam/agent-graph.js";
import { measureTool } from "../surface/inspect-surface.js";
import { DEFAULT_BUDGET_CHARS, surfaceBudget } from "./lint-rules/budget.js";
import { keywordStuffing, noWhenNot, vagueDescription } from "./lint-rules/description.js";
import { shadowsBuiltin, vagueName } from "./lint-rules/naming.js";
import {
  actionDispatch,
  catchAllParam,
  stringForFixedSet,
  unboundedLimit,
  undescribedParam,
} from "./lint-rules/parameters.js";
import { undeclaredSideEffect } from "./lint-rules/side-effects.js";
import { collectParams } from "./lint-rules/text.js";
import {
  LINT_RULES,
  type LintContext,
  type LintFinding,
  type LintRuleName,
  type LintSubject,
  type ToolRule,
} from "./lint-rules/types.js";

export { DEFAULT_BUDGET_CHARS } from "./lint-rules/budget.js";
export { LINT_RULES, type LintFinding, type LintRuleName } from "./lint-rules/types.js";

/** Options of `lintTools`. */
export interface LintToolsOptions {
  /** Characters the whole surface may cost per model call. Default 8,000. */
  budgetChars?: number;
  /** Rules to skip, e.g. `["no-when-not"]` for a single-tool agent. */
  ignore?: readonly LintRuleName[];
  /** Names a user tool must not take. Default: Delve's built-in tool names. */
  reservedNames?: readonly string[];
}

// Per-tool rules, in the order their findings are reported.
const TOOL_RULES: ReadonlyArray<[LintRuleName, ToolRule]> = [
  ["vague-name", vagueName],
  ["shadows-builtin", shadowsBuiltin],
  ["vague-description", vagueDescription],
  ["no-when-not", noWhenNot],
  ["keyword-stuffing", keywordStuffing],
  ["undeclared-side-effect", undeclaredSideEffect],
  ["action-dispatch", actionDispatch],
  ["catch-all-param", catchAllParam],
  ["undescribed-param", undescribedParam],
  ["string-for-fixed-set", stringForFixedSet],
  ["unbounded-limit", unboundedLimit],
];

/**
 * Reviews tools the way a model will meet them (name, description, JSON schema) and returns
 * one finding per anti-pattern of SPEC §10: vague names or descriptions, no "when not to
 * use", action-dispatch parameters, catch-all or undescribed strings, free strings where an
 * enum fits, limits without a maximum, undeclared side effects, names shadowing built-ins,
 * keyword stuffing, and a total surface over `budgetChars`. Takes what `createDeepAgent`
 * takes (LangChain tools, `{ name, description, schema, func }`; provider dictionaries only
 * count toward the budget) or a built agent, whose registered tools are linted and whose
 * built-ins are not reported as shadowing themselves. Static checks cannot see hidden order
 * dependencies or what a tool returns: review those by hand.
 *
 * @example
 * for (const f of lintTools([getOrder, cancelOrder])) console.log(`${f.tool} ${f.rule}: ${f.message} Fix: ${f.fix}`);
 */
export function lintTools(
  tools: readonly AgentTool[] | object,
  options: LintToolsOptions = {},
): LintFinding[] {
  const ignored = new Set(checkIgnore(options.ignore));
  const budget = options.budgetChars ?? DEFAULT_BUDGET_CHARS;
  if (typeof budget !== "number" || !(budget > 0)) {
    throw new ConfigurationError("INVALID_OPTION", "budgetChars must be a positive number.");
  }
  const { subjects, providerChars } = subjectsOf(tools);
  const context: LintContext = {
    toolNames: new Set(subjects.map((s) => s.name)),
    reservedNames: options.reservedNames ?? BUILTIN_TOOL_NAMES,
  };
  const findings: LintFinding[] = [];
  for (const subject of subjects) {
    for (const [name, rule] of TOOL_RULES) {
      if (!ignored.has(name)) findings.push(...rule(subject, context));
    }
  }
  if (!ignored.has("surface-budget")) {
    const measured = [...subjects.filter((s) => !s.hiddenFromModel), ...providerChars];
    findings.push(...surfaceBudget(measured, budget));
  }
  return findings;
}

type Subject = LintSubject & { hiddenFromModel?: boolean };

function subjectsOf(input: readonly AgentTool[] | object): {
  subjects: Subject[];
  providerChars: Array<{ name: string; chars: number }>;
} {
  const info = Array.isArray(input) ? undefined : agentInfoOf(input);
  if (info) {
    const registered = registeredTools(input) as any[];
    const hidden = new Set(info.plans.flatMap((p) => [...p.hidden.keys()]));
    const subjects = registered.map((t) => ({
      ...subjectOf(t, !info.sources.has(t.name)),
      hiddenFromModel: hidden.has(t.name),
    }));
    return { subjects, providerChars: [] };
  }
  if (!Array.isArray(input)) {
    throw new ConfigurationError(
      "INVALID_TOOL",
      "lintTools takes a list of tools or an agent built by createDeepAgent.",
    );
  }
  const normalized = normalizeTools(input);
  return {
    subjects: normalized.filter((t) => t.source === "user").map((t) => subjectOf(t.value, false)),
    providerChars: normalized
      .filter((t) => t.source === "provider")
      .map((t) => ({ name: t.name, chars: measureTool(t.value).chars })),
  };
}

function subjectOf(tool: any, builtin: boolean): Subject {
  const fn = (convertToOpenAITool(tool) as any).function;
  return {
    name: fn.name,
    description: typeof fn.description === "string" ? fn.description : "",
    parameters: collectParams(fn.parameters),
    chars: measureTool(tool).chars,
    builtin,
  };
}

function checkIgnore(ignore: unknown): LintRuleName[] {
  if (ignore === undefined) return [];
  const list = Array.isArray(ignore) ? ignore : [ignore];
  for (const name of list) {
    if (!(LINT_RULES as readonly unknown[]).includes(name)) {
      throw new ConfigurationError(
        "UNKNOWN_LINT_RULE",
        `Unknown lint rule ${JSON.stringify(name)}. Rules: ${LINT_RULES.join(", ")}.`,
        { rule: name },
      );
    }
  }
  return list as LintRuleName[];
}
