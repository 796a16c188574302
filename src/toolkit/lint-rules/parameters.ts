import { explains, isFreeString, mentions, nameTokens, ownDescription } from "./text.js";
import type { LintFinding, LintParam, LintSubject, ToolRule } from "./types.js";

// Parameter names that select a branch of the tool: manage_order(action, ...).
const SELECTOR_NAMES = new Set([
  "action",
  "op",
  "operation",
  "command",
  "cmd",
  "verb",
  "method",
  "action_type",
  "operation_type",
]);
// Enum values that are actions: an enum of these is a dispatcher whatever it is called.
const ACTION_VALUES = new Set([
  "get",
  "list",
  "read",
  "search",
  "find",
  "query",
  "create",
  "add",
  "insert",
  "update",
  "edit",
  "modify",
  "set",
  "patch",
  "delete",
  "remove",
  "cancel",
  "refund",
  "close",
  "approve",
  "reject",
  "send",
  "archive",
]);

/** `action-dispatch`: a parameter that picks which of several actions runs. */
export const actionDispatch: ToolRule = (tool) => {
  const top = tool.parameters.filter((p) => p.topLevel);
  const othersOptional = (p: LintParam) => top.some((o) => o !== p && !o.required);
  return top.flatMap((param) => {
    const values: unknown[] = Array.isArray(param.schema.enum) ? param.schema.enum : [];
    const actionValues = values.filter(
      (v) => typeof v === "string" && ACTION_VALUES.has(v.toLowerCase()),
    );
    const selector =
      SELECTOR_NAMES.has(param.name.toLowerCase()) &&
      (values.length >= 2 || (param.schema.type === "string" && othersOptional(param)));
    if (!selector && actionValues.length < 2) return [];
    const listed = values.length ? ` (${values.map(String).join(", ")})` : "";
    return [
      finding(tool, param, "action-dispatch", {
        message: `${tool.name} dispatches on "${param.path}"${listed}: one tool doing several actions, with parameters that matter only for some of them.`,
        fix: "Split it into one tool per action (get_order, cancel_order, ...), each with only the parameters that action needs.",
      }),
    ];
  });
};

// Names that hold anything at all: the model has to guess the format.
const CATCH_ALL_NAMES = new Set([
  "query",
  "q",
  "data",
  "input",
  "inputs",
  "params",
  "parameters",
  "args",
  "arguments",
  "payload",
  "body",
  "json",
  "value",
  "values",
  "options",
  "opts",
  "info",
  "obj",
  "object",
  "raw",
  "str",
  "string",
  "s",
  "misc",
  "extra",
  "request",
  "blob",
  "filter",
  "filters",
  "criteria",
  "details",
  "fields",
  "attributes",
  "props",
  "metadata",
]);
// A description admitting the string carries structure: JSON, a list, key=value pairs.
const STRUCTURED_IN_STRING =
  /\bjson\b|comma[- ]separated|key\s*=\s*value|key-value|seriali[sz]ed|\bdict\b|逗号分隔|JSON 字符串/i;

/** `catch-all-param`: a free string named like a bag of anything, or carrying structure. */
export const catchAllParam: ToolRule = (tool) =>
  tool.parameters.flatMap((param) => {
    if (!isFreeString(param.schema)) return [];
    const own = ownDescription(param);
    if (STRUCTURED_IN_STRING.test(own)) {
      return [
        finding(tool, param, "catch-all-param", {
          message: `${tool.name}.${param.path} packs structured data into a string (${JSON.stringify(own)}).`,
          fix: "Give each piece its own typed parameter (an object, an array, enums, numbers with ranges).",
        }),
      ];
    }
    if (!CATCH_ALL_NAMES.has(param.name.toLowerCase())) return [];
    // A catch-all name needs a real explanation, not a passing mention ("Process data").
    if (own || explains(tool.description, param.name)) return [];
    return [
      finding(tool, param, "catch-all-param", {
        message: `${tool.name}.${param.path} is a free string with a catch-all name and no explanation: the model must guess what goes in it.`,
        fix: `Rename it after what it holds (customer_name, order_id) and describe its format, or replace it with typed parameters.`,
      }),
    ];
  });

// Tokens too generic to explain a parameter on their own.
const GENERIC_TOKENS = new Set([...CATCH_ALL_NAMES, "text", "content", "name", "id", "item"]);

/**
 * `undescribed-param`: a free string the model gets no explanation for. A string counts as
 * explained by its own description, by the tool description naming it, by a specific
 * compound name (`order_id`, `file_path`), or by being the tool's one required free string
 * (the subject of the description's first sentence, like grep's pattern).
 */
export const undescribedParam: ToolRule = (tool) => {
  const freeRequired = tool.parameters.filter(
    (p) => p.topLevel && p.required && isFreeString(p.schema),
  );
  return tool.parameters.flatMap((param) => {
    if (!isFreeString(param.schema) || CATCH_ALL_NAMES.has(param.name.toLowerCase())) return [];
    if (ownDescription(param) || mentions(tool.description, param.name)) return [];
    const tokens = nameTokens(param.name);
    if (tokens.length >= 2 && tokens.some((t) => !GENERIC_TOKENS.has(t))) return [];
    if (freeRequired.length === 1 && freeRequired[0] === param) return [];
    return [
      finding(tool, param, "undescribed-param", {
        message: `${tool.name}.${param.path} is a free string with no description: nothing tells the model its format or meaning.`,
        fix: "Add a description with the format and an example (e.g. 'Order id such as ORD-1001'), or a pattern or enum.",
      }),
    ];
  });
};

const FIXED_SET_NAMES = new Set([
  "status",
  "state",
  "type",
  "kind",
  "category",
  "priority",
  "severity",
  "level",
  "tier",
  "stage",
  "phase",
  "direction",
  "sort_order",
  "sort_direction",
  "order_direction",
  "gender",
]);
const FIXED_SET_SUFFIX = /_(status|state|type|kind|category|priority|severity|level|tier|stage)$/;

/** `string-for-fixed-set`: a status/type/category/priority parameter typed as a free string. */
export const stringForFixedSet: ToolRule = (tool) =>
  tool.parameters.flatMap((param) => {
    const name = param.name.toLowerCase();
    if (!isFreeString(param.schema)) return [];
    if (!FIXED_SET_NAMES.has(name) && !FIXED_SET_SUFFIX.test(name)) return [];
    return [
      finding(tool, param, "string-for-fixed-set", {
        message: `${tool.name}.${param.path} takes a fixed set of values but is a free string, so the model can invent one ("已完成", "done").`,
        fix: `Make it an enum of the allowed values, e.g. z.enum(["open", "investigating", "resolved"]).`,
      }),
    ];
  });

const LIMIT_NAMES = new Set([
  "limit",
  "max",
  "max_results",
  "max_items",
  "max_rows",
  "page_size",
  "pagesize",
  "per_page",
  "size",
  "count",
  "top",
  "top_k",
  "topk",
  "k",
  "n",
  "num",
  "num_results",
  "take",
  "batch_size",
  "rows",
]);
// zod's int() carries Number.MAX_SAFE_INTEGER as its maximum: that is no bound.
const NO_BOUND = Number.MAX_SAFE_INTEGER;

/** `unbounded-limit`: a limit/page_size/count number without a schema maximum. */
export const unboundedLimit: ToolRule = (tool) =>
  tool.parameters.flatMap((param) => {
    const name = param.name.toLowerCase();
    if (param.schema.type !== "integer" && param.schema.type !== "number") return [];
    if (!LIMIT_NAMES.has(name) && !name.startsWith("max_") && !name.endsWith("_limit")) return [];
    const max = param.schema.maximum ?? param.schema.exclusiveMaximum;
    if (typeof max === "number" && max < NO_BOUND) return [];
    return [
      finding(tool, param, "unbounded-limit", {
        message: `${tool.name}.${param.path} has no maximum: a model can ask for 100000 rows and flood its own context.`,
        fix: "Add a maximum to the schema (z.number().int().min(1).max(50)) and page the rest (total, page, items).",
      }),
    ];
  });

function finding(
  tool: LintSubject,
  param: LintParam,
  rule: LintFinding["rule"],
  text: { message: string; fix: string },
): LintFinding {
  return { tool: tool.name, rule, message: text.message, fix: text.fix, param: param.path };
}
