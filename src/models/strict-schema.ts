// OpenAI's strict tool calling accepts only a subset of JSON schema: every object closed
// (`additionalProperties: false`) and listing every property in `required`, optional ones
// written as a union with null, and none of the keywords the subset leaves out.

type Schema = Record<string, any>;

/** Keywords strict mode refuses; they are dropped (the tool still validates its arguments). */
export const STRICT_UNSUPPORTED_KEYWORDS = [
  "$schema",
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "dependentRequired",
  "dependentSchemas",
  "patternProperties",
  "propertyNames",
  "unevaluatedProperties",
  "minProperties",
  "maxProperties",
  "uniqueItems",
  "contains",
  "default",
] as const;

function withNull(schema: Schema): Schema {
  if (Array.isArray(schema.anyOf)) {
    const hasNull = schema.anyOf.some((s: Schema) => s?.type === "null");
    return hasNull ? schema : { ...schema, anyOf: [...schema.anyOf, { type: "null" }] };
  }
  if (schema.type === undefined) return { anyOf: [schema, { type: "null" }] };
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const next: Schema = { ...schema, type: types.includes("null") ? types : [...types, "null"] };
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) next.enum = [...schema.enum, null];
  return next;
}

/**
 * The strict-mode form of a tool's argument schema: the same arguments, with optional ones
 * made required-but-nullable (the tool layer reads `null` as "not given"), every object
 * closed and unsupported keywords removed. The input is not changed.
 *
 * @example
 * strictToolSchema({ type: "object", properties: { path: { type: "string" } }, required: [] })
 * // { type: "object", properties: { path: { type: ["string", "null"] } }, required: ["path"], additionalProperties: false }
 */
export function strictToolSchema(schema: Schema): Schema {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if ((STRICT_UNSUPPORTED_KEYWORDS as readonly string[]).includes(key)) continue;
    out[key] = value;
  }
  if (Array.isArray(out.anyOf)) out.anyOf = out.anyOf.map(strictToolSchema);
  if (out.items && typeof out.items === "object") out.items = strictToolSchema(out.items);
  const types = Array.isArray(out.type) ? out.type : [out.type];
  if (types.includes("object") || out.properties) {
    const props: Record<string, Schema> = out.properties ?? {};
    const required: string[] = Array.isArray(schema.required) ? schema.required : [];
    out.properties = Object.fromEntries(
      Object.entries(props).map(([name, sub]) => {
        const strict = strictToolSchema(sub);
        return [name, required.includes(name) ? strict : withNull(strict)];
      }),
    );
    out.required = Object.keys(props);
    out.additionalProperties = false;
    if (out.type === undefined) out.type = "object";
  }
  return out;
}
