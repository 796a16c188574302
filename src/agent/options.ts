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
  "store",
  "debug",
  "name",
  "cache",
  "toolErrors",
  "onToolNameConflict",
  "profile",
  "profileKey",
  "maxSubagentDepth",
] as const;

/** Options whose feature has not landed: passing one throws NOT_IMPLEMENTED. */
const NOT_LANDED: Record<string, string> = {
  skills: "skills come with the context-management issue",
  memory: "memory files come with the context-management issue",
  interruptOn: "human approval comes with the approval issue",
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
