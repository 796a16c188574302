import { ConfigurationError } from "../errors/index.js";
import type { PermissionRule } from "./types.js";
import { describeValue, validateRule } from "./validate.js";
import { refuseWidening } from "./widening.js";

/**
 * Checks permission rules at construction time and returns frozen, normalised copies
 * (rule paths lose duplicate, trailing and "." segments). Throws a `ConfigurationError`
 * with code `INVALID_PERMISSION` naming `permissions[index]` and the problem: not an array,
 * not an object, an unknown key, an empty or unknown operation, empty paths, a relative
 * path, "..", a backslash, or a missing or unknown mode (there is no default mode); or an
 * earlier, less strict rule that covers a later rule's paths (see `refuseWidening`).
 *
 * @example
 * validatePermissions([{ operations: ["write"], paths: ["/policies//"], mode: "deny" }])
 * // [{ operations: ["write"], paths: ["/policies"], mode: "deny" }]
 */
export function validatePermissions(rules: unknown): PermissionRule[] {
  if (!Array.isArray(rules)) {
    throw new ConfigurationError(
      "INVALID_PERMISSION",
      `Invalid permissions: expected an array of rules, got ${describeValue(rules)}.`,
      { problem: "not an array" },
    );
  }
  const validated = rules.map((rule, index) => validateRule(rule, index));
  refuseWidening(validated);
  return validated;
}
