import { UsageError } from "./args.js";

/** The most an `--edit` object may nest; tool arguments are flat or nearly so. */
const MAX_DEPTH = 32;

// Keys that would reach an object's prototype when the arguments are spread or merged.
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** `--edit JSON`: a plain object of tool arguments, not nested deeper than 32, no prototype keys. */
export function parseEditArgs(text: string): Record<string, unknown> {
  // Before JSON.parse: its reviver recurses, and a hostile nesting would overflow the stack.
  if (depthOf(text) > MAX_DEPTH) {
    throw new UsageError(`--edit: the arguments nest deeper than ${MAX_DEPTH} levels.`);
  }
  let edited: unknown;
  try {
    edited = JSON.parse(text, (key, value) => {
      if (FORBIDDEN_KEYS.has(key)) {
        throw new UsageError(`--edit: the key "${key}" is not allowed in tool arguments.`);
      }
      return value;
    });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(
      '--edit takes the new arguments as a JSON object, e.g. --edit \'{"command":"ls"}\'.',
    );
  }
  if (typeof edited !== "object" || edited === null || Array.isArray(edited)) {
    throw new UsageError("--edit takes a JSON object of arguments.");
  }
  return edited as Record<string, unknown>;
}

// The deepest bracket nesting of JSON text, skipping strings; one pass, no recursion.
function depthOf(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") deepest = Math.max(deepest, ++depth);
    else if (c === "}" || c === "]") depth--;
  }
  return deepest;
}
