/** The rules `lintTools` applies, one anti-pattern each (SPEC §10, seed 004 §7). */
export const LINT_RULES = [
  "vague-name",
  "vague-description",
  "no-when-not",
  "keyword-stuffing",
  "action-dispatch",
  "catch-all-param",
  "undescribed-param",
  "string-for-fixed-set",
  "unbounded-limit",
  "undeclared-side-effect",
  "shadows-builtin",
  "surface-budget",
] as const;

/** The name of one lint rule. */
export type LintRuleName = (typeof LINT_RULES)[number];

/** One problem `lintTools` found: which tool, which rule, what is wrong, how to fix it. */
export interface LintFinding {
  /** The tool's name; `"*"` for findings about the whole set (the surface budget). */
  tool: string;
  rule: LintRuleName;
  /** What is wrong, naming the parameter or the words at fault. */
  message: string;
  /** What to change. */
  fix: string;
  /** The parameter at fault, as a dotted path (`where.status`), when there is one. */
  param?: string;
}

/** A JSON schema node, as `convertToOpenAITool` renders a tool's parameters. */
export type JsonSchema = Record<string, any>;

/** One parameter of a tool, nested object properties included (`path` is dotted). */
export interface LintParam {
  path: string;
  /** The last segment of the path: the property name. */
  name: string;
  /** The parameter's schema with nullable/optional wrappers removed. */
  schema: JsonSchema;
  required: boolean;
  /** True at the top level of the arguments object. */
  topLevel: boolean;
}

/** A tool as the rules see it: what the model is handed. */
export interface LintSubject {
  name: string;
  description: string;
  parameters: LintParam[];
  /** Characters of name + description + JSON schema, as the surface inspector measures them. */
  chars: number;
  /** Whether the tool is Delve's own (built-in) rather than the user's. */
  builtin: boolean;
}

/** What every rule can see besides the tool itself. */
export interface LintContext {
  /** Names of every tool in the linted set. */
  toolNames: ReadonlySet<string>;
  /** Names a user tool must not take. */
  reservedNames: readonly string[];
}

/** A rule over one tool. */
export type ToolRule = (tool: LintSubject, context: LintContext) => LintFinding[];
