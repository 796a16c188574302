import type { JsonSchema, LintParam } from "./types.js";

/** Lower-case tokens of a tool or parameter name: `getOrderStatus`, `get_order-status`. */
export function nameTokens(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean);
}

/** Lower-case Latin words of a text. */
export function latinWords(text: string): string[] {
  return text.toLowerCase().match(/[a-z][a-z'-]*/g) ?? [];
}

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/g;

/**
 * Length weighted for information: a CJK character carries about a short word, so it
 * counts three; everything else counts one.
 */
export function weightedLength(text: string): number {
  const cjk = text.match(CJK)?.length ?? 0;
  return text.trim().length + cjk * 2;
}

/** Whether `text` names `identifier` as a whole word (`file_path` also as "file path"). */
export function mentions(text: string, identifier: string): boolean {
  const escaped = identifier.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const spaced = escaped.replace(/_/g, "[ _]");
  return new RegExp(`(^|[^A-Za-z0-9_])${spaced}([^A-Za-z0-9_]|$)`, "i").test(text);
}

/**
 * Whether `text` names `identifier` and says what it takes right after: "query: a product
 * name", "query (product name)", "query is ...", "query 填商品名".
 */
export function explains(text: string, identifier: string): boolean {
  const escaped = identifier.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const after = String.raw`\s*([:：=(（]|(is|are|takes|holds|contains|means|accepts|must|should|e\.g\.|like)\b|[填为是指])`;
  return new RegExp(`(^|[^A-Za-z0-9_])${escaped}${after}`, "i").test(text);
}

/** A rough stem, so "orders"/"order" and "management"/"manage" compare equal. */
export function stem(word: string): string {
  const w = word.toLowerCase().replace(/(ment|ing|ers|er|es|ed|s)$/, "");
  return w.length > 5 ? w.slice(0, 5) : w;
}

/** A schema without `null` alternatives: `anyOf: [{type: "string"}, {type: "null"}]` -> string. */
export function unwrapNullable(schema: JsonSchema): JsonSchema {
  const variants = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(variants)) {
    const real = variants.filter((v: JsonSchema) => v?.type !== "null");
    if (real.length === 1)
      return { ...real[0], description: schema.description ?? real[0].description };
  }
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((t: string) => t !== "null");
    if (types.length === 1) return { ...schema, type: types[0] };
  }
  return schema;
}

/** Every parameter of an arguments schema, nested object properties included. */
export function collectParams(schema: JsonSchema | undefined, prefix = "", depth = 0): LintParam[] {
  const properties = schema?.properties;
  if (!properties || typeof properties !== "object" || depth > 3) return [];
  const required = new Set<string>(Array.isArray(schema.required) ? schema.required : []);
  return Object.entries(properties as Record<string, JsonSchema>).flatMap(([name, raw]) => {
    const node = unwrapNullable(raw ?? {});
    const path = prefix ? `${prefix}.${name}` : name;
    const param: LintParam = {
      path,
      name,
      schema: node,
      required: required.has(name),
      topLevel: depth === 0,
    };
    return [param, ...(node.type === "object" ? collectParams(node, path, depth + 1) : [])];
  });
}

/** A string the schema does not constrain to a set or a shape: no enum, const, pattern or format. */
export function isFreeString(schema: JsonSchema): boolean {
  return (
    schema.type === "string" &&
    schema.enum === undefined &&
    schema.const === undefined &&
    schema.pattern === undefined &&
    schema.format === undefined
  );
}

/** The parameter's own description, trimmed ("" when none). */
export function ownDescription(param: LintParam): string {
  return typeof param.schema.description === "string" ? param.schema.description.trim() : "";
}
