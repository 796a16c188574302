import {
  type ApprovalDecisionType,
  DECISIONS,
  type InterruptOnConfig,
  type NormalizedInterruptOn,
} from "../approval/middleware.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { NotImplementedError } from "../errors/not-implemented-error.js";

/** Every option key `createDeepAgent` knows, landed or not. */
export const KNOWN_OPTIONS = [
  "model",
  "tools",
  "systemPrompt",
  "middleware",
  "subagents",
  "skills",
  "memory",
  "permissions",
  "backend",
  "interruptOn",
  "responseFormat",
  "stateSchema",
  "contextSchema",
  "checkpointer",
  "checkpointSnapshotEvery",
  "store",
  "debug",
  "name",
  "cache",
  "toolErrors",
  "onToolNameConflict",
  "profile",
  "profileKey",
  "maxSubagentDepth",
  "toolTokenLimitBeforeEvict",
  "maxEvictedBytesPerThread",
  "contextWindow",
  "summarization",
  "harnessBackend",
  "deferTools",
  "askUser",
] as const;

/** Options whose feature has not landed: passing one throws NOT_IMPLEMENTED. */
const NOT_LANDED: Record<string, string> = {
  cache: "node caching is not supported yet",
};

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/** The known name closest to `key` (case-insensitive edit distance). */
export function nearestOption(key: string): string {
  let best: string = KNOWN_OPTIONS[0];
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const name of KNOWN_OPTIONS) {
    const d = editDistance(key.toLowerCase(), name.toLowerCase());
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return best;
}

/** Refuses unknown keys (naming the nearest valid one) and options that have not landed. */
export function checkOptionKeys(options: object): void {
  if (typeof options !== "object" || options === null) {
    throw new ConfigurationError(
      "INVALID_OPTIONS",
      "createDeepAgent takes an options object: { model, tools, ... }.",
    );
  }
  for (const key of Object.keys(options)) {
    if (!(KNOWN_OPTIONS as readonly string[]).includes(key)) {
      const suggestion = nearestOption(key);
      throw new ConfigurationError(
        "UNKNOWN_OPTION",
        `Unknown option "${key}" for createDeepAgent. Did you mean "${suggestion}"?`,
        { option: key, suggestion },
      );
    }
    const value = (options as Record<string, unknown>)[key];
    if (key in NOT_LANDED && value !== undefined)
      throw new NotImplementedError(key, NOT_LANDED[key]);
  }
}

/**
 * Checks an `interruptOn` option at construction: values must be booleans or
 * `{ allowedDecisions?, description? }`. `where` names the option in messages.
 *
 * @example
 * validateInterruptOn({ delete_order: true }, "interruptOn").get("delete_order")?.allowedDecisions
 * // ["approve", "edit", "reject"]
 */
export function validateInterruptOn(value: unknown, where: string): NormalizedInterruptOn {
  const out = new Map<
    string,
    { allowedDecisions: ApprovalDecisionType[]; description?: InterruptOnConfig["description"] }
  >();
  if (value === undefined) return out;
  const fail = (problem: string): never => {
    throw new ConfigurationError("INVALID_INTERRUPT_ON", `${where}${problem}`);
  };
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return fail(" must be an object: { tool_name: true | { allowedDecisions, description } }.");
  }
  for (const [name, entry] of Object.entries(value)) {
    const at = `.${name}`;
    if (entry === false) continue;
    if (entry === true) {
      out.set(name, { allowedDecisions: [...DECISIONS] });
      continue;
    }
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
      fail(`${at} must be true, false or { allowedDecisions, description }.`);
    }
    const config = entry as Record<string, unknown>;
    for (const key of Object.keys(config)) {
      if (key !== "allowedDecisions" && key !== "description") {
        fail(`${at} has unknown field "${key}"; use allowedDecisions and description.`);
      }
    }
    const allowed = config.allowedDecisions ?? [...DECISIONS];
    if (
      !Array.isArray(allowed) ||
      allowed.length === 0 ||
      !allowed.every((d) => DECISIONS.includes(d as ApprovalDecisionType))
    ) {
      fail(`${at}.allowedDecisions must be a non-empty list of "approve", "edit", "reject".`);
    }
    const { description } = config;
    if (
      description !== undefined &&
      typeof description !== "string" &&
      typeof description !== "function"
    ) {
      fail(`${at}.description must be a string or a function of the tool call.`);
    }
    out.set(name, {
      allowedDecisions: [...new Set(allowed as ApprovalDecisionType[])],
      description: description as InterruptOnConfig["description"],
    });
  }
  return out;
}

/**
 * Refuses gates on tools the agent does not have (a typo would silently leave a tool
 * ungated), listing the tools it has.
 *
 * @example
 * checkInterruptOnNames(validateInterruptOn({ delete_ordr: true }, "interruptOn"), ["delete_order"], "interruptOn") // throws
 */
export function checkInterruptOnNames(
  gates: NormalizedInterruptOn,
  toolNames: readonly string[],
  where: string,
): void {
  for (const name of gates.keys()) {
    if (!toolNames.includes(name)) {
      throw new ConfigurationError(
        "UNKNOWN_INTERRUPT_TOOL",
        `${where} names "${name}", which is not a tool of this agent. Its tools: ${toolNames.join(", ")}.`,
        { tool: name, tools: [...toolNames] },
      );
    }
  }
}
