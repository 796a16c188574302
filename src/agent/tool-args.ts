import { toJsonSchema, Validator } from "@langchain/core/utils/json_schema";
import { isInteropZodSchema } from "@langchain/core/utils/types";

// What every tool kind (zod, JSON schema, MCP) shares about its arguments: the JSON schema
// the model was shown, `null` for an optional argument read as "not given", and one wording
// for what is wrong with a call's arguments.

type JsonSchema = Record<string, any>;
const schemas = new WeakMap<object, JsonSchema | null>();

/** The JSON schema of a tool's arguments (zod converted once), or undefined when it has none. */
export function argumentSchemaOf(tool: unknown): JsonSchema | undefined {
  if (typeof tool !== "object" || tool === null) return undefined;
  if (!schemas.has(tool)) schemas.set(tool, convert((tool as { schema?: unknown }).schema));
  return schemas.get(tool) ?? undefined;
}

function convert(schema: unknown): JsonSchema | null {
  if (typeof schema !== "object" || schema === null) return null;
  try {
    const json = isInteropZodSchema(schema) ? toJsonSchema(schema as any) : schema;
    return typeof json === "object" && json !== null ? (json as JsonSchema) : null;
  } catch {
    return null;
  }
}

const admitsNull = (property: JsonSchema | undefined): boolean => {
  if (!property) return false;
  const types = Array.isArray(property.type) ? property.type : [property.type];
  if (types.includes("null")) return true;
  if (Array.isArray(property.enum) && property.enum.includes(null)) return true;
  return [property.anyOf, property.oneOf].some(
    (list) => Array.isArray(list) && list.some((s: JsonSchema) => admitsNull(s)),
  );
};

/**
 * The call's arguments with every `null` for an optional argument removed, at any depth the
 * schema describes (nested objects, array items, `$ref`s): models trained on strict schemas
 * send `null` for "not given", which a plain optional schema refuses. Required arguments, and
 * arguments whose schema admits `null`, keep their value.
 *
 * @example
 * withoutNullOptionals(readFileTool, { file_path: "/a.md", offset: null }) // { file_path: "/a.md" }
 */
export function withoutNullOptionals(
  tool: unknown,
  args: Record<string, unknown>,
): Record<string, unknown> {
  const schema = argumentSchemaOf(tool);
  if (!schema || typeof args !== "object" || args === null || Array.isArray(args)) return args;
  return withoutNulls(schema, args, schema, 0) as Record<string, unknown>;
}

// Deeper than the arguments' own nesting limit nothing is looked at.
const MAX_NULL_DEPTH = 100;

function withoutNulls(node: unknown, value: unknown, root: JsonSchema, depth: number): unknown {
  const schema = objectBranch(follow(node, root), root);
  if (!schema || depth > MAX_NULL_DEPTH || typeof value !== "object" || value === null) {
    return value;
  }
  if (Array.isArray(value)) {
    const prefix: unknown[] = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
    const itemOf = (i: number) =>
      prefix[i] ?? (Array.isArray(schema.items) ? schema.items[i] : schema.items);
    const items = value.map((item, i) => withoutNulls(itemOf(i), item, root, depth + 1));
    return items.some((item, i) => item !== value[i]) ? items : value;
  }
  const required: string[] = Array.isArray(schema.required) ? schema.required : [];
  const props: Record<string, JsonSchema> = schema.properties ?? {};
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (field === null && !required.includes(key) && !admitsNull(follow(props[key], root))) {
      changed = true;
      continue;
    }
    out[key] = props[key] ? withoutNulls(props[key], field, root, depth + 1) : field;
    if (out[key] !== field) changed = true;
  }
  return changed ? out : value;
}

// A schema with its local `$ref` followed (a few hops, so a cycle of refs ends).
function follow(node: unknown, root: JsonSchema): JsonSchema | undefined {
  let schema = node as JsonSchema | undefined;
  for (let hop = 0; hop < 8 && typeof schema?.$ref === "string"; hop++) {
    const target = schema.$ref === "#" ? root : at(root, schema.$ref);
    schema = typeof target === "object" && target !== null ? (target as JsonSchema) : undefined;
  }
  return schema;
}

// The branch that describes an object or array: the schema, or its one non-null union member.
function objectBranch(schema: JsonSchema | undefined, root: JsonSchema): JsonSchema | undefined {
  const union = schema?.anyOf ?? schema?.oneOf;
  if (!Array.isArray(union)) return schema;
  const members = union.map((s) => follow(s, root)).filter((s) => s && s.type !== "null");
  return members.length === 1 ? members[0] : schema;
}

// Validator lines that only say "a child failed": the child's own line says what.
const WRAPPERS = new Set(["properties", "items", "prefixItems", "false", "allOf", "$ref"]);

/**
 * What is wrong with `args` for `tool`, one phrase per field ("\"limit\" must be integer, not
 * string"), judged on the tool's JSON schema so zod, JSON-schema and MCP tools read alike.
 * Empty when the schema finds nothing (a zod refinement it cannot express).
 */
export function argumentProblems(tool: unknown, args: unknown): string[] {
  const schema = argumentSchemaOf(tool);
  if (!schema) return [];
  let errors: Array<{
    keyword: string;
    keywordLocation: string;
    instanceLocation: string;
    error: string;
  }>;
  try {
    errors = new Validator(schema as any, "7", false).validate(args).errors;
  } catch {
    return [];
  }
  const problems = errors
    .filter((e) => !WRAPPERS.has(e.keyword))
    .map((e) =>
      explain(e.keyword, fieldOf(e.instanceLocation), e.error, at(schema, e.keywordLocation)),
    );
  return [...new Set(problems)];
}

// "#/o/k" -> "o.k", "#/arr/0" -> "arr[0]".
function fieldOf(location: string): string {
  return location
    .replace(/^#\/?/, "")
    .split("/")
    .filter(Boolean)
    .map((part, i) => (/^\d+$/.test(part) ? `[${part}]` : i === 0 ? part : `.${part}`))
    .join("");
}

// The value a JSON pointer ("#/properties/days/maximum") names in the schema.
function at(schema: JsonSchema, pointer: string): unknown {
  let current: any = schema;
  for (const part of pointer.replace(/^#\/?/, "").split("/").filter(Boolean)) {
    current = current?.[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return current;
}

const BOUNDS: Record<string, string> = {
  minimum: "at least",
  maximum: "at most",
  exclusiveMinimum: "greater than",
  exclusiveMaximum: "less than",
};
const LENGTHS: Record<string, [string, string]> = {
  minLength: ["at least", "characters"],
  maxLength: ["at most", "characters"],
  minItems: ["at least", "items"],
  maxItems: ["at most", "items"],
};

function explain(keyword: string, field: string, error: string, limit: unknown): string {
  const where = (name: string) => (field ? `${field}.${name}` : name);
  const quoted = /"([^"]+)"/.exec(error)?.[1] ?? "";
  if (BOUNDS[keyword] && typeof limit === "number") {
    return `"${field}" must be ${BOUNDS[keyword]} ${limit}`;
  }
  const length = LENGTHS[keyword];
  if (length && typeof limit === "number") {
    return `"${field}" must have ${length[0]} ${limit} ${length[1]}`;
  }
  if (keyword === "pattern" && typeof limit === "string") {
    return `"${field}" must match the pattern ${limit}`;
  }
  switch (keyword) {
    case "required":
      return `"${where(quoted)}" is required`;
    case "additionalProperties":
      return `"${where(quoted)}" is not an argument`;
    case "type": {
      const found = /Instance type "(.+)" is invalid\. Expected "(.+)"/.exec(error);
      if (found) return `"${field}" must be ${found[2]}, not ${found[1]}`;
      break;
    }
    case "enum": {
      const found = /any of (\[.*\])/.exec(error);
      if (found) {
        const options = (JSON.parse(found[1]!) as unknown[]).map(String).join(", ");
        return `"${field}" must be one of: ${options}`;
      }
      break;
    }
  }
  return `"${field || "arguments"}": ${error.replace(/\.$/, "")}`;
}
