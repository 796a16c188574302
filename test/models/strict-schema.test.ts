import { describe, expect, it } from "vitest";
import { strictToolSchema } from "../../src/models/strict-schema.js";
import { strictSchemaProblem } from "../wire/wire-rules.js";

// Every reachable subschema in strict form; what strict mode cannot say is reported, not lost.
const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties,
  ...extra,
});
const leaf = obj({ a: { type: "string" } });

describe("strictToolSchema walks every subschema", () => {
  const reachable: Array<[string, Record<string, unknown>]> = [
    ["$defs", obj({ x: { $ref: "#/$defs/L" } }, { $defs: { L: leaf } })],
    ["definitions", obj({ x: { $ref: "#/definitions/L" } }, { definitions: { L: leaf } })],
    ["items", obj({ x: { type: "array", items: leaf } })],
    ["tuple items", obj({ x: { type: "array", items: [leaf, { type: "string" }] } })],
    ["prefixItems", obj({ x: { type: "array", prefixItems: [leaf] } })],
    ["anyOf", obj({ x: { anyOf: [leaf, { type: "null" }] } })],
    ["oneOf", obj({ x: { oneOf: [leaf, obj({ b: { type: "integer" } })] } })],
    ["allOf", obj({ x: { allOf: [leaf, obj({ b: { type: "integer" } })] } })],
    ["allOf of a $ref", obj({ x: { allOf: [{ $ref: "#/$defs/L" }] } }, { $defs: { L: leaf } })],
    ["nested properties", obj({ x: obj({ y: obj({ z: leaf }) }) })],
    [
      "a $ref with a description",
      obj({ x: { $ref: "#/$defs/L", description: "d" } }, { $defs: { L: leaf } }),
    ],
    [
      "not / if / then / else / dependentSchemas",
      obj(
        { x: leaf },
        {
          ...Object.fromEntries(["not", "if", "then", "else"].map((k) => [k, leaf])),
          dependentSchemas: { x: leaf },
        },
      ),
    ],
  ];
  it.each(reachable)("through %s, the result passes the strict rules", (_what, schema) => {
    const strict = strictToolSchema(schema);
    expect(strict).toBeDefined();
    expect(strictSchemaProblem(strict)).toBeUndefined();
  });

  it("allOf is merged: properties joined, every one required, optional ones nullable", () => {
    const schema = obj({
      x: { allOf: [leaf, obj({ b: { type: "integer" } }, { required: ["b"] })] },
    });
    expect(strictToolSchema(schema)!.properties.x).toEqual({
      type: ["object", "null"],
      properties: { a: { type: ["string", "null"] }, b: { type: "integer" } },
      required: ["a", "b"],
      additionalProperties: false,
    });
  });

  it("recursive refs end: a self-reference with a description, through $defs and through #", () => {
    const node = {
      type: "object",
      properties: {
        name: { type: "string" },
        parent: { $ref: "#/$defs/Node", description: "up" },
        children: { type: "array", items: { $ref: "#/$defs/Node" } },
        root: { allOf: [{ $ref: "#" }], description: "top" },
      },
    };
    const schema = obj(
      { tree: { $ref: "#/$defs/Node", description: "the tree" } },
      { $defs: { Node: node } },
    );
    const strict = strictToolSchema(schema);
    expect(strictSchemaProblem(strict)).toBeUndefined();
    expect(JSON.stringify(strict).length).toBeLessThan(4 * JSON.stringify(schema).length);
  });

  it("a map of values (additionalProperties schema or true, or a free-form nested object) cannot be strict", () => {
    expect(
      strictToolSchema(obj({ m: { type: "object", additionalProperties: { type: "string" } } })),
    ).toBeUndefined();
    expect(
      strictToolSchema(obj({ m: { type: "object", additionalProperties: true } })),
    ).toBeUndefined();
    expect(strictToolSchema(obj({ m: { type: "object" } }))).toBeUndefined();
    expect(
      strictToolSchema(obj({ m: { type: "object", patternProperties: { "^x": leaf } } })),
    ).toBeUndefined();
    expect(
      strictToolSchema(obj({ m: { $ref: "#/$defs/M" } }, { $defs: { M: { type: "object" } } })),
    ).toBeUndefined();
    expect(strictToolSchema({ type: "object" })).toEqual({
      type: "object",
      properties: {},
      required: [],
      additionalProperties: false,
    });
  });

  it("the input schema is not changed", () => {
    const schema = obj({ x: { $ref: "#/$defs/L", description: "d" } }, { $defs: { L: leaf } });
    const copy = structuredClone(schema);
    strictToolSchema(schema);
    expect(schema).toEqual(copy);
  });
});

describe("the wire fake refuses what OpenAI's strict mode refuses", () => {
  const refused: Array<[string, Record<string, unknown>]> = [
    [
      "an open object in $defs",
      obj(
        { x: { $ref: "#/$defs/L" } },
        { $defs: { L: { ...leaf, additionalProperties: false, required: [] } } },
      ),
    ],
    [
      "a def missing additionalProperties",
      { ...strictToolSchema(obj({}))!, $defs: { L: { ...leaf, required: ["a"] } } },
    ],
    [
      "an open object in prefixItems",
      {
        ...strictToolSchema(obj({}))!,
        properties: { t: { type: "array", prefixItems: [leaf] } },
        required: ["t"],
      },
    ],
    [
      "a $ref with a sibling",
      {
        ...strictToolSchema(obj({}))!,
        properties: { t: { $ref: "#", description: "d" } },
        required: ["t"],
      },
    ],
    [
      "a $ref to nothing",
      {
        ...strictToolSchema(obj({}))!,
        properties: { t: { $ref: "#/$defs/Gone" } },
        required: ["t"],
      },
    ],
    [
      "oneOf",
      {
        ...strictToolSchema(obj({}))!,
        properties: { t: { oneOf: [{ type: "string" }] } },
        required: ["t"],
      },
    ],
  ];
  it.each(refused)("%s", (_what, schema) => {
    expect(strictSchemaProblem(schema)).toBeTypeOf("string");
  });
});
