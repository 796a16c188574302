import { nameTokens } from "./text.js";
import type { LintFinding, ToolRule } from "./types.js";

// Words that name no action and no object: a name made only of them says nothing.
const VAGUE_WORDS = new Set([
  "process",
  "handle",
  "manage",
  "do",
  "perform",
  "run",
  "data",
  "info",
  "information",
  "stuff",
  "thing",
  "things",
  "misc",
  "general",
  "generic",
  "tool",
  "tools",
  "helper",
  "util",
  "utils",
  "utility",
  "function",
  "func",
  "fn",
  "action",
  "actions",
  "op",
  "ops",
  "operation",
  "operations",
  "request",
  "input",
  "output",
  "object",
  "entity",
  "item",
  "items",
  "main",
  "common",
  "service",
  "api",
  "call",
  "invoke",
  "my",
  "the",
]);

// Verbs that hide which action runs: manage_order may read, change or cancel.
const CATCH_ALL_VERBS = new Set(["manage", "handle", "process", "do", "perform"]);

/** `vague-name`: a name made only of generic words, or led by a catch-all verb. */
export const vagueName: ToolRule = (tool) => {
  const tokens = nameTokens(tool.name);
  const allVague = tokens.length > 0 && tokens.every((t) => VAGUE_WORDS.has(t));
  const leadVerb = tokens.length > 1 && CATCH_ALL_VERBS.has(tokens[0]!) ? tokens[0] : undefined;
  if (!allVague && !leadVerb && tokens.length > 0) return [];
  const why =
    tokens.length === 0
      ? "has no words"
      : allVague
        ? "is made only of generic words"
        : `starts with "${leadVerb}", which hides which action runs`;
  return [
    {
      tool: tool.name,
      rule: "vague-name",
      message: `The name "${tool.name}" ${why}: the model cannot tell from it what the tool does.`,
      fix: "Name the tool after its one action and its object, verb first: get_order, cancel_order, search_tickets.",
    },
  ];
};

/** `shadows-builtin`: a user tool named like one of Delve's built-in tools. */
export const shadowsBuiltin: ToolRule = (tool, context) => {
  if (tool.builtin || !context.reservedNames.includes(tool.name)) return [];
  const finding: LintFinding = {
    tool: tool.name,
    rule: "shadows-builtin",
    message: `"${tool.name}" is the name of a built-in tool: yours replaces it, and the other built-ins' descriptions still describe the original.`,
    fix: `Rename it after what it does on your system (e.g. a prefix: crm_${tool.name}), or exclude it when it comes from an MCP server.`,
  };
  return [finding];
};
