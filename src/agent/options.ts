import type { BaseCache } from "@langchain/langgraph-checkpoint";
import {
  type ApprovalDecisionType,
  DECISIONS,
  type InterruptOnConfig,
  type NormalizedInterruptOn,
} from "../approval/middleware.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { nearestName } from "../errors/nearest-name.js";
import type { CreateDeepAgentOptions } from "./deep-agent-options.js";

// One entry per key of CreateDeepAgentOptions: a key missing here, or one the type does not
// have, does not compile, so the unknown-key check can never refuse a real option.
const OPTION_KEYS = {
  model: true,
  tools: true,
  systemPrompt: true,
  middleware: true,
  subagents: true,
  skills: true,
  memory: true,
  permissions: true,
  backend: true,
  interruptOn: true,
  responseFormat: true,
  stateSchema: true,
  contextSchema: true,
  checkpointer: true,
  checkpointSnapshotEvery: true,
  store: true,
  debug: true,
  name: true,
  cache: true,
  toolErrors: true,
  onToolNameConflict: true,
  profile: true,
  profileKey: true,
  maxSubagentDepth: true,
  toolTokenLimitBeforeEvict: true,
  maxEvictedBytesPerThread: true,
  contextWindow: true,
  summarization: true,
  harnessBackend: true,
  deferTools: true,
  askUser: true,
  limits: true,
  modelRetry: true,
} as const satisfies Record<keyof CreateDeepAgentOptions, true>;

/** Every option key `createDeepAgent` knows. */
export const KNOWN_OPTIONS = Object.keys(OPTION_KEYS) as readonly (keyof CreateDeepAgentOptions)[];

/** The known name closest to `key` (case-insensitive edit distance). */
export function nearestOption(key: string): string {
  return nearestName(key, KNOWN_OPTIONS) ?? KNOWN_OPTIONS[0] ?? "";
}

/** Refuses unknown keys, naming the nearest valid one. */
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
    {
      allowedDecisions: ApprovalDecisionType[];
      description?: InterruptOnConfig["description"];
      when?: InterruptOnConfig["when"];
    }
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
      if (key !== "allowedDecisions" && key !== "description" && key !== "when") {
        fail(`${at} has unknown field "${key}"; use allowedDecisions, description and when.`);
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
    if (config.when !== undefined && typeof config.when !== "function") {
      fail(`${at}.when must be a function of the tool call returning true to gate it.`);
    }
    out.set(name, {
      allowedDecisions: [...new Set(allowed as ApprovalDecisionType[])],
      description: description as InterruptOnConfig["description"],
      ...(config.when ? { when: config.when as InterruptOnConfig["when"] } : {}),
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

/**
 * Checks the `cache` option: a LangGraph `BaseCache` (with `get`, `set` and `clear`), such
 * as `new InMemoryCache()` from `@langchain/langgraph-checkpoint`.
 *
 * @example
 * validateCache(new InMemoryCache()) // the cache
 */
export function validateCache(value: unknown): BaseCache | undefined {
  if (value === undefined) return undefined;
  const cache = value as Partial<BaseCache> | null;
  if (
    typeof cache?.get !== "function" ||
    typeof cache.set !== "function" ||
    typeof cache.clear !== "function"
  ) {
    throw new ConfigurationError(
      "INVALID_OPTION",
      "cache must be a LangGraph cache such as new InMemoryCache() from @langchain/langgraph-checkpoint.",
    );
  }
  return value as BaseCache;
}
