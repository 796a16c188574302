import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { ConfigurationError } from "../errors/configuration-error.js";
import { nearestName } from "../errors/nearest-name.js";
import { writeConfigAtomically } from "./config-file.js";
import { describeIssue, type ModelPrice, priceFileSchema } from "./prices.js";
import { type ApprovalRules, compileRules } from "./rules.js";

/**
 * `delve run`'s configuration: the user's `$XDG_CONFIG_HOME/delve/config.json` (else
 * `~/.config/delve/config.json`) under the project's `.delve/config.json`. Scalars
 * (`model`, `approval`, `sandbox`) from the project beat the user's; `rules` lists
 * concatenate (user first; deny still beats ask beats allow whatever the file); `prices` and
 * `mcpServers` merge by key, the project's entry winning.
 */

/** What a config file may set. */
export interface DelveConfig {
  /** `provider:model`, e.g. `anthropic:claude-sonnet-4-6`. */
  model?: string;
  approval?: "ask" | "edits" | "yolo";
  sandbox?: "auto" | "bwrap" | "none";
  rules?: ApprovalRules;
  /** `provider:model` to USD per million tokens; beats the shipped table. */
  prices?: Record<string, ModelPrice>;
  /** The `mcpServers` map of the Claude Desktop format, checked by the MCP loader. */
  mcpServers?: Record<string, unknown>;
  /** Give the built-in agent the `ask_user` tool (as `delve run --ask-user`). */
  askUser?: boolean;
}

const rulesSchema = z.strictObject({
  allow: z.array(z.string()).optional(),
  ask: z.array(z.string()).optional(),
  deny: z.array(z.string()).optional(),
});

/** The zod schema of one config file (strict: an unknown key is an error). */
export const configSchema = z.strictObject({
  $schema: z.string().optional(),
  model: z
    .string()
    .regex(
      /^([^:\s]+:\S+|human)$/,
      'write "provider:model", e.g. "anthropic:claude-sonnet-4-6" (or "human")',
    )
    .optional(),
  approval: z.enum(["ask", "edits", "yolo"]).optional(),
  sandbox: z.enum(["auto", "bwrap", "none"]).optional(),
  rules: rulesSchema.optional(),
  prices: priceFileSchema.optional(),
  mcpServers: z.record(z.string(), z.unknown()).optional(),
  askUser: z.boolean().optional(),
});

/** The keys a config accepts at each level, for "did you mean" suggestions. */
const KEYS_AT: Record<string, readonly string[]> = {
  "": Object.keys(configSchema.shape),
  rules: ["allow", "ask", "deny"],
  prices: ["input", "output", "cacheRead", "cacheWrite"],
};

/** The project config of a workspace. */
export function projectConfigPath(cwd: string): string {
  return path.join(cwd, ".delve", "config.json");
}

/** The user config: `$XDG_CONFIG_HOME/delve/config.json`, else `~/.config/delve/config.json`. */
export function userConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(env.HOME || os.homedir(), ".config");
  return path.join(base, "delve", "config.json");
}

function fail(file: string, key: string, message: string, details: Record<string, unknown> = {}) {
  return new ConfigurationError("INVALID_CONFIG", `${file}${key ? `: "${key}"` : ""} ${message}`, {
    file,
    key,
    ...details,
  });
}

/** Reads and checks one config file; undefined when it does not exist. */
export function readConfigFile(file: string): DelveConfig | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw fail(file, "", `cannot be read: ${(error as Error).message}. Fix its permissions.`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw fail(
      file,
      "",
      `is not valid JSON (${(error as Error).message}). Fix the syntax or delete the file.`,
    );
  }
  const parsed = configSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const { path: key, message } = describeIssue(parsed.error);
    if (issue?.code === "unrecognized_keys") {
      const unknown = issue.keys[0]!;
      const level = issue.path.length === 0 ? "" : String(issue.path[0]);
      const suggestion = nearestName(unknown, KEYS_AT[level] ?? []);
      const where = [...issue.path.map(String), unknown].join(".");
      throw fail(
        file,
        where,
        `is not a config key.${suggestion ? ` Did you mean "${suggestion}"?` : ""}`,
        {
          suggestion,
        },
      );
    }
    throw fail(file, key, `is invalid: ${message}.`);
  }
  const { $schema: _, ...config } = parsed.data;
  // A bad rule fails here, naming this file, rather than at the first tool call.
  if (config.rules) compileRules(config.rules, file);
  return config as DelveConfig;
}

function concat(a: string[] | undefined, b: string[] | undefined): string[] | undefined {
  if (!a && !b) return undefined;
  return [...new Set([...(a ?? []), ...(b ?? [])])];
}

/** Merges `over` onto `base` (see the module comment for the rules). */
export function mergeConfigs(base: DelveConfig, over: DelveConfig): DelveConfig {
  const merged: DelveConfig = { ...base };
  if (over.model !== undefined) merged.model = over.model;
  if (over.approval !== undefined) merged.approval = over.approval;
  if (over.sandbox !== undefined) merged.sandbox = over.sandbox;
  if (over.askUser !== undefined) merged.askUser = over.askUser;
  if (base.rules || over.rules) {
    const rules: ApprovalRules = {};
    for (const kind of ["allow", "ask", "deny"] as const) {
      const list = concat(base.rules?.[kind], over.rules?.[kind]);
      if (list) rules[kind] = list;
    }
    merged.rules = rules;
  }
  if (base.prices || over.prices) merged.prices = { ...base.prices, ...over.prices };
  if (base.mcpServers || over.mcpServers)
    merged.mcpServers = { ...base.mcpServers, ...over.mcpServers };
  return merged;
}

/**
 * Loads the user config under the project config of `cwd`, both checked with zod and their
 * rules compiled; an error names the file, the key and the fix. `files` lists the files read.
 */
export function loadConfig(opts: { cwd: string; env?: NodeJS.ProcessEnv }): {
  config: DelveConfig;
  files: string[];
} {
  const files: string[] = [];
  let config: DelveConfig = {};
  const user = userConfigPath(opts.env ?? process.env);
  const project = projectConfigPath(opts.cwd);
  for (const file of user === project ? [project] : [user, project]) {
    const one = readConfigFile(file);
    if (!one) continue;
    files.push(file);
    config = mergeConfigs(config, one);
  }
  return { config, files };
}

/**
 * Adds `rule` to `rules.allow` in the project's `.delve/config.json` ("always allow"): the
 * rule is checked first, other keys are kept, a rule already there is not added twice, and
 * the file is replaced atomically under a lock so two terminals cannot lose each other's rule.
 */
export function addAllowRule(cwd: string, rule: string): void {
  const file = projectConfigPath(cwd);
  compileRules({ allow: [rule] }, file);
  writeConfigAtomically(file, (current) => {
    if (
      current !== undefined &&
      (typeof current !== "object" || current === null || Array.isArray(current))
    )
      throw fail(file, "", "is not a JSON object. Fix or delete it.");
    const config = { ...(current as Record<string, unknown> | undefined) };
    const rules = (config.rules ?? {}) as Record<string, unknown>;
    if (typeof rules !== "object" || rules === null || Array.isArray(rules))
      throw fail(file, "rules", 'is not an object. Write {"allow": [...]}.');
    const allow = rules.allow ?? [];
    if (!Array.isArray(allow))
      throw fail(file, "rules.allow", 'is not a list. Write ["rule", ...].');
    if (allow.includes(rule)) return undefined;
    config.rules = { ...rules, allow: [...allow, rule] };
    return config;
  });
}
