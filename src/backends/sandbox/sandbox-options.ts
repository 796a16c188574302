// The checks of SandboxBackend's constructor options: each throws a ConfigurationError that
// names the option and what it must be.
import fs from "node:fs";
import { ConfigurationError } from "../../errors/configuration-error.js";
import { invalidOption } from "../protocol/backend-options.js";

/** The workspace's real path: an existing directory (symlinks resolved). */
export function resolveRootDir(rootDir: unknown): string {
  if (typeof rootDir !== "string" || rootDir.length === 0) {
    throw new ConfigurationError(
      "MISSING_OPTION",
      "SandboxBackend needs rootDir: the workspace directory",
      {
        backend: "SandboxBackend",
        option: "rootDir",
      },
    );
  }
  let real: string;
  try {
    real = fs.realpathSync(rootDir);
  } catch {
    throw invalidOption("SandboxBackend", "rootDir", rootDir, "must be an existing directory");
  }
  if (!fs.statSync(real).isDirectory()) {
    throw invalidOption("SandboxBackend", "rootDir", rootDir, "must be a directory, not a file");
  }
  return real;
}

/** `value` when it is a positive integer. */
export function positiveInteger(option: string, value: unknown): number {
  if (!Number.isInteger(value) || (value as number) <= 0) {
    throw invalidOption("SandboxBackend", option, value, "must be a positive integer");
  }
  return value as number;
}

/** A copy of `env` when it is an object of strings; {} when unset. */
export function checkEnv(env: unknown): Record<string, string> {
  if (env === undefined) return {};
  if (typeof env !== "object" || env === null || Array.isArray(env)) {
    throw invalidOption("SandboxBackend", "env", env, "must be an object of strings");
  }
  for (const [key, value] of Object.entries(env)) {
    if (typeof value !== "string") {
      throw invalidOption("SandboxBackend", `env.${key}`, value, "must be a string");
    }
  }
  return { ...(env as Record<string, string>) };
}
