import { ConfigurationError } from "../errors/index.js";
import { normalizeRulePath } from "./normalize.js";
import type { FileOperation, PermissionMode, PermissionRule } from "./types.js";

const OPERATIONS: readonly FileOperation[] = ["read", "write"];
const MODES: readonly PermissionMode[] = ["allow", "deny", "interrupt"];
const KEYS = ["operations", "paths", "mode"];

/** A value as named in an error message ("an array", `"x"`, null). */
export function describeValue(value: unknown): string {
  return describe(value);
}

/** Checks one rule (see `validatePermissions`); `index` names it in the error. */
export function validateRule(rule: unknown, index: number): PermissionRule {
  const fail = (problem: string, value?: unknown): never => {
    throw new ConfigurationError(
      "INVALID_PERMISSION",
      `Invalid permission rule permissions[${index}]: ${problem}.`,
      { index, problem, value },
    );
  };
  if (typeof rule !== "object" || rule === null || Array.isArray(rule)) {
    return fail(`expected { operations, paths, mode }, got ${describe(rule)}`, rule);
  }
  const record = rule as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!KEYS.includes(key)) fail(`unknown key "${key}" (expected operations, paths, mode)`, key);
  }

  const { operations, paths, mode } = record;
  if (!Array.isArray(operations) || operations.length === 0) {
    fail('operations must be a non-empty array of "read" and/or "write"', operations);
  }
  for (const operation of operations as unknown[]) {
    if (!OPERATIONS.includes(operation as FileOperation)) {
      fail(`unknown operation ${describe(operation)} (expected "read" or "write")`, operation);
    }
  }
  if (!Array.isArray(paths) || paths.length === 0) {
    fail("paths must be a non-empty array of absolute paths", paths);
  }
  const normalised: string[] = [];
  for (const path of paths as unknown[]) {
    const checked = normalizeRulePath(path);
    if (!checked.ok) return fail(checked.reason, path);
    if (!normalised.includes(checked.path)) normalised.push(checked.path);
  }
  if (mode === undefined) fail('mode is required ("allow", "deny" or "interrupt")');
  if (!MODES.includes(mode as PermissionMode)) {
    fail(`unknown mode ${describe(mode)} (expected "allow", "deny" or "interrupt")`, mode);
  }
  return Object.freeze({
    operations: Object.freeze([...new Set(operations as FileOperation[])]),
    paths: Object.freeze(normalised),
    mode: mode as PermissionMode,
  });
}

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  return typeof value === "object" ? "an object" : String(value);
}
