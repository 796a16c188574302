// OpenAI's strict tool calling accepts only a subset of JSON schema: every object closed
// (`additionalProperties: false`) and listing every property in `required`, optional ones
// written as a union with null, `$ref` only bare, and none of the keywords the subset leaves
// out. Every subschema counts, `$defs` included: one open object anywhere is a 400.

type Schema = Record<string, any>;

/** Keywords strict mode refuses; they are dropped (the tool still validates its arguments). */
export const STRICT_UNSUPPORTED_KEYWORDS = [
  "$schema",
  "not",
  "if",
  "then",
  "else",
  "dependentRequired",
  "dependentSchemas",
  "patternProperties",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
  "minProperties",
  "maxProperties",
  "uniqueItems",
  "additionalItems",
  "contains",
  "minContains",
  "maxContains",
  "default",
] as const;

const DROPPED = new Set<string>(STRICT_UNSUPPORTED_KEYWORDS);
const isSchema = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

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

// Thrown inside the walk when a schema says something strict mode cannot (a map's values).
class NotStrictExpressible extends Error {}

/**
 * The strict-mode form of a tool's argument schema: the same arguments, with optional ones
 * made required-but-nullable (the tool layer reads `null` as "not given"), every object
 * closed and unsupported keywords removed, in every subschema the arguments can reach:
 * properties, `items`, `prefixItems`, `anyOf` (and `oneOf`, written as `anyOf`), `allOf`
 * (merged into its object), `$defs` / `definitions`. A `$ref` with keywords beside it (a
 * description) becomes `{ anyOf: [{ $ref }], ... }`, since strict mode refuses those. Returns
 * `undefined` when strict mode cannot say what the schema says: an object taking keys it
 * does not list (`additionalProperties` other than `false`, `patternProperties`, or no
 * `properties` below the top level), such as a record of values; that tool must go out non-strict. The input is
 * not changed.
 *
 * @example
 * strictToolSchema({ type: "object", properties: { path: { type: "string" } }, required: [] })
 * // { type: "object", properties: { path: { type: ["string", "null"] } }, required: ["path"], additionalProperties: false }
 */
export function strictToolSchema(schema: Schema): Schema | undefined {
  if (!isSchema(schema)) return schema;
  try {
    return new StrictWalk(schema).convert(schema, true, []);
  } catch (error) {
    if (error instanceof NotStrictExpressible) return undefined;
    throw error;
  }
}

const MAX_REF_LOOKUPS = 1_000;

class StrictWalk {
  private lookups = 0;
  constructor(private readonly root: Schema) {}

  // `inlining` holds the `$ref`s being inlined above this node, so a recursive one stops.
  convert(node: Schema, top: boolean, inlining: readonly string[]): Schema {
    if (!isSchema(node)) return node;
    const merged = this.withoutAllOf(node, inlining);
    if (typeof merged.$ref === "string" && Object.keys(merged).length > 1) {
      return this.inline(merged, top, inlining);
    }
    const out: Schema = {};
    for (const [key, value] of Object.entries(merged)) {
      if (!DROPPED.has(key)) out[key] = value;
    }
    const sub = (s: Schema) => this.convert(s, false, inlining);
    const all = (list: unknown): Schema[] => (Array.isArray(list) ? list.map(sub) : []);
    if (Array.isArray(out.oneOf)) {
      out.anyOf = [...all(out.anyOf), ...all(out.oneOf)];
      delete out.oneOf;
    } else if (Array.isArray(out.anyOf)) out.anyOf = all(out.anyOf);
    for (const key of ["$defs", "definitions"]) {
      if (isSchema(out[key])) {
        out[key] = Object.fromEntries(Object.entries(out[key]).map(([n, s]) => [n, sub(s)]));
      }
    }
    if (Array.isArray(out.items)) {
      // The older tuple form, `items: [...]`, is `prefixItems` in the schema strict mode reads.
      out.prefixItems = out.items;
      delete out.items;
      delete out.additionalItems;
    }
    if (isSchema(out.items)) out.items = sub(out.items);
    if (Array.isArray(out.prefixItems)) out.prefixItems = all(out.prefixItems);
    const types = Array.isArray(out.type) ? out.type : [out.type];
    if (types.includes("object") || out.properties || out.additionalProperties !== undefined) {
      this.closeObject(out, merged, top, sub);
    }
    return out;
  }

  private closeObject(out: Schema, source: Schema, top: boolean, sub: (s: Schema) => Schema) {
    const open =
      (out.additionalProperties !== undefined && out.additionalProperties !== false) ||
      source.patternProperties !== undefined;
    // Below the top level an object without properties is free-form (any keys).
    if (open || (!top && !isSchema(out.properties) && out.additionalProperties !== false)) {
      throw new NotStrictExpressible();
    }
    const props: Record<string, Schema> = isSchema(out.properties) ? out.properties : {};
    const required: string[] = Array.isArray(source.required) ? source.required : [];
    out.properties = Object.fromEntries(
      Object.entries(props).map(([name, s]) => {
        const strict = sub(s);
        return [name, required.includes(name) ? strict : withNull(strict)];
      }),
    );
    out.required = Object.keys(props);
    out.additionalProperties = false;
    if (out.type === undefined) out.type = "object";
  }

  // A `$ref` with siblings (a description): below the top, the ref as a one-member `anyOf`
  // with the siblings beside it (strict mode refuses siblings of `$ref`, and inlining could
  // grow without bound); at the top, which must be an object, the target itself.
  private inline(node: Schema, top: boolean, inlining: readonly string[]): Schema {
    const { $ref, ...siblings } = node;
    if (!top || inlining.includes($ref)) {
      return this.convert({ ...siblings, anyOf: [{ $ref }] }, top, inlining);
    }
    const { $defs: _d, definitions: _n, ...body } = this.resolve($ref) ?? {};
    return this.convert({ ...body, ...siblings }, top, [...inlining, $ref]);
  }

  // `allOf` merged into its schema: properties and `required` joined, other keywords laid over.
  private withoutAllOf(node: Schema, inlining: readonly string[]): Schema {
    if (!Array.isArray(node.allOf)) return node;
    const { allOf, ...rest } = node;
    let merged: Schema = {};
    for (const part of [...allOf, rest]) {
      const entry = this.flatten(part, inlining);
      merged = {
        ...merged,
        ...entry,
        ...(merged.properties || entry.properties
          ? { properties: { ...merged.properties, ...entry.properties } }
          : {}),
        ...(merged.required || entry.required
          ? { required: [...new Set([...(merged.required ?? []), ...(entry.required ?? [])])] }
          : {}),
      };
    }
    return merged;
  }

  // One `allOf` entry as a plain schema: a `$ref` to its target (unless recursive).
  private flatten(part: unknown, inlining: readonly string[]): Schema {
    if (!isSchema(part)) return {};
    // A lone `$ref` inside `allOf` (pydantic's way to describe a field) stays a reference.
    if (typeof part.$ref === "string" && Object.keys(part).length === 1) return { anyOf: [part] };
    const ref = part.$ref;
    if (typeof ref !== "string" || inlining.includes(ref)) return this.withoutAllOf(part, inlining);
    const { $ref: _, ...siblings } = part;
    const { $defs: _d, definitions: _n, ...target } = this.resolve(ref) ?? {};
    return this.withoutAllOf({ ...target, ...siblings }, [...inlining, ref]);
  }

  // A local JSON pointer ("#", "#/$defs/Seat"); other references are left unresolved.
  private resolve(ref: string): Schema | undefined {
    // `allOf` chains can fan out: past a budget of lookups the schema is not sent strict.
    if (++this.lookups > MAX_REF_LOOKUPS) throw new NotStrictExpressible();
    if (ref === "#") return this.root;
    if (!ref.startsWith("#/")) return undefined;
    let at: unknown = this.root;
    for (const raw of ref.slice(2).split("/")) {
      const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
      at = isSchema(at) ? at[key] : undefined;
    }
    return isSchema(at) ? at : undefined;
  }
}
