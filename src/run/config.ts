// TEMPORARY STUB: the real module comes from branch h-run-rules (same interface).
import fs from "node:fs";
import path from "node:path";
import { ConfigurationError } from "../errors/configuration-error.js";
import type { ModelPrice } from "./prices.js";
import type { ApprovalRules } from "./rules.js";

/** The config file's content. */
export interface DelveConfig {
  model?: string;
  approval?: "ask" | "edits" | "yolo";
  sandbox?: "auto" | "bwrap" | "none";
  rules?: ApprovalRules;
  prices?: Record<string, ModelPrice>;
  mcpServers?: Record<string, unknown>;
}
const KEYS = ["model", "approval", "sandbox", "rules", "prices", "mcpServers"];
/** Loads project over user config (stub: unknown keys only). */
export function loadConfig(opts: { cwd: string; env?: NodeJS.ProcessEnv }): {
  config: DelveConfig;
  files: string[];
} {
  const env = opts.env ?? process.env;
  const user = path.join(
    env.XDG_CONFIG_HOME ?? path.join(env.HOME ?? "", ".config"),
    "delve",
    "config.json",
  );
  const files = [user, path.join(opts.cwd, ".delve", "config.json")].filter((f) =>
    fs.existsSync(f),
  );
  let config: DelveConfig = {};
  for (const file of files) {
    const parsed = JSON.parse(fs.readFileSync(file, "utf8"));
    for (const key of Object.keys(parsed)) {
      if (!KEYS.includes(key)) {
        throw new ConfigurationError("INVALID_OPTION", `${file}: unknown key "${key}"; remove it.`);
      }
    }
    config = { ...config, ...parsed };
  }
  return { config, files };
}
/** Adds an allow rule to the project config. */
export function addAllowRule(cwd: string, rule: string): void {
  const file = path.join(cwd, ".delve", "config.json");
  const current = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : {};
  current.rules = { ...current.rules, allow: [...(current.rules?.allow ?? []), rule] };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(current, null, 2)}\n`);
}
