import { describe, expect, it } from "vitest";
import { strictToolSchema } from "../../src/models/strict-schema.js";
import { strictSchemaProblem } from "../wire/wire-rules.js";

// An MCP server writes the tool schemas Delve converts for strict mode: a schema built to
// fan out through references must neither loop nor grow without bound.
function chain(depth: number, link: (next: string) => Record<string, unknown>) {
  const $defs: Record<string, unknown> = {};
  for (let i = 0; i < depth; i++) {
    $defs[`D${i}`] =
      i === depth - 1
        ? { type: "object", properties: { v: { type: "string" } } }
        : link(`#/$defs/D${i + 1}`);
  }
  return { type: "object", properties: { root: { $ref: "#/$defs/D0" } }, $defs };
}

describe("strict conversion of hostile reference graphs", () => {
  it("40 levels of described refs, each used twice, convert in linear size", () => {
    const schema = chain(40, (next) => ({
      type: "object",
      properties: {
        a: { $ref: next, description: "left" },
        b: { $ref: next, description: "right" },
      },
    }));
    const started = performance.now();
    const strict = strictToolSchema(schema);
    expect(performance.now() - started).toBeLessThan(200);
    expect(strictSchemaProblem(strict)).toBeUndefined();
    expect(JSON.stringify(strict).length).toBeLessThan(3 * JSON.stringify(schema).length);
  });

  it("40 levels of allOf over two refs each end within the lookup budget, sent non-strict", () => {
    const schema = chain(40, (next) => ({
      allOf: [
        { $ref: next, title: "left" },
        { $ref: next, description: "right" },
      ],
    }));
    const started = performance.now();
    const strict = strictToolSchema(schema);
    expect(performance.now() - started).toBeLessThan(500);
    expect(strict).toBeUndefined();
  });

  it("refs that point at each other, at themselves and at the root do not loop", () => {
    const schema = {
      type: "object",
      properties: {
        a: { $ref: "#/$defs/A", description: "a" },
        r: { allOf: [{ $ref: "#" }], title: "r" },
      },
      $defs: {
        A: { allOf: [{ $ref: "#/$defs/B" }], description: "A" },
        B: {
          allOf: [
            { $ref: "#/$defs/A" },
            { type: "object", properties: { x: { $ref: "#/$defs/B", description: "self" } } },
          ],
        },
      },
    };
    const strict = strictToolSchema(schema);
    expect(strict === undefined || strictSchemaProblem(strict) === undefined).toBe(true);
  });
});
