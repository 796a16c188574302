import { ConfigurationError, validatePermissions } from "delve";
import { describe, expect, it } from "vitest";

function errorOf(rules: unknown): ConfigurationError {
  try {
    validatePermissions(rules);
  } catch (error) {
    if (ConfigurationError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("validatePermissions did not throw");
}

const rule = (patch: Record<string, unknown>) => ({
  operations: ["read"],
  paths: ["/a"],
  mode: "deny",
  ...patch,
});

describe("validatePermissions", () => {
  it("normalises rule paths and returns frozen copies", () => {
    const input = [
      {
        operations: ["write", "write"],
        paths: ["/policies//./", "//x/**", "/policies"],
        mode: "deny",
      },
    ];
    const [out] = validatePermissions(input);
    expect(out).toEqual({ operations: ["write"], paths: ["/policies", "/x/**"], mode: "deny" });
    expect(Object.isFrozen(out)).toBe(true);
    expect(Object.isFrozen(out!.paths)).toBe(true);
    expect(input[0]!.paths).toEqual(["/policies//./", "//x/**", "/policies"]);
  });

  it("accepts every mode and both operations", () => {
    const rules = validatePermissions([
      rule({ mode: "allow", paths: ["/a/public"] }),
      rule({ mode: "deny", operations: ["read", "write"] }),
      rule({ mode: "interrupt", operations: ["write"], paths: ["/b"] }),
    ]);
    expect(rules).toHaveLength(3);
  });

  const cases: [string, unknown, RegExp][] = [
    ["not an array", { operations: ["read"] }, /expected an array of rules, got an object/],
    [
      "a rule that is not an object",
      ["/a"],
      /permissions\[0\]: expected \{ operations, paths, mode \}/,
    ],
    [
      "an unknown key",
      [rule({ operation: ["read"] })],
      /permissions\[0\]: unknown key "operation"/,
    ],
    ["empty operations", [rule({ operations: [] })], /operations must be a non-empty array/],
    [
      "an unknown operation",
      [rule({ operations: ["read", "execute"] })],
      /unknown operation "execute"/,
    ],
    ["empty paths", [rule({ paths: [] })], /paths must be a non-empty array/],
    ["paths not an array", [rule({ paths: "/a" })], /paths must be a non-empty array/],
    ["a relative path", [rule({ paths: ["secrets/**"] })], /"secrets\/\*\*" must be absolute/],
    ["a ~ path", [rule({ paths: ["~/secrets"] })], /must be absolute/],
    ["an empty path", [rule({ paths: [""] })], /must not be empty/],
    ["a non-string path", [rule({ paths: [42] })], /must be a string/],
    ["a .. segment", [rule({ paths: ["/a/../b"] })], /must not contain "\.\."/],
    ["a backslash", [rule({ paths: ["/a\\*"] })], /contains a backslash/],
    ["a control character", [rule({ paths: ["/a\u0000b"] })], /control character/],
    [
      "a slash inside braces",
      [rule({ paths: ["/{a/b,c}"] })],
      /list the alternatives as separate paths/,
    ],
    ["a missing mode", [{ operations: ["read"], paths: ["/a"] }], /mode is required/],
    ["an unknown mode", [rule({ mode: "block" })], /unknown mode "block"/],
  ];
  for (const [name, input, message] of cases) {
    it(`refuses ${name} with INVALID_PERMISSION`, () => {
      const error = errorOf(input);
      expect(error.code).toBe("INVALID_PERMISSION");
      expect(error.message).toMatch(message);
    });
  }

  it("names the index of the offending rule in the message and the details", () => {
    const error = errorOf([rule({}), rule({}), rule({ mode: "nope" })]);
    expect(error.message).toMatch(/^Invalid permission rule permissions\[2\]: unknown mode "nope"/);
    expect(error.details).toMatchObject({ index: 2, value: "nope" });
  });
});
