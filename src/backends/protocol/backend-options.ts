import fs from "node:fs";
import { ConfigurationError } from "../../errors/configuration-error.js";

/**
 * Throws `UNKNOWN_OPTION` for a key outside `known`, so a typo (`root_dir`) is not ignored.
 *
 * @example
 * rejectUnknownOptions(options, ["rootDir"], "FilesystemBackend");
 */
export function rejectUnknownOptions(options: object, known: string[], backend: string): void {
  if (typeof options !== "object" || options === null) {
    throw new ConfigurationError("INVALID_OPTION", `${backend} needs an options object`, {
      backend,
    });
  }
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new ConfigurationError(
        "UNKNOWN_OPTION",
        `${backend} has no option "${key}"; known options: ${known.join(", ")}`,
        { backend, option: key, known },
      );
    }
  }
}

/**
 * A `ConfigurationError` with code `INVALID_OPTION` for one option.
 *
 * @example
 * throw invalidOption("LocalShellBackend", "timeout", 0, "must be > 0 seconds");
 */
export function invalidOption(
  backend: string,
  option: string,
  value: unknown,
  rule: string,
): ConfigurationError {
  return new ConfigurationError(
    "INVALID_OPTION",
    `${backend} option ${option} ${rule} (got ${JSON.stringify(value) ?? String(value)})`,
    { backend, option, value },
  );
}

/** The real path of an existing `rootDir`, or a construction error saying what is wrong. */
export function resolveRootDir(rootDir: unknown, backend: string): string {
  if (typeof rootDir !== "string" || rootDir.length === 0) {
    throw new ConfigurationError(
      "MISSING_OPTION",
      `${backend} needs rootDir: the directory it works in`,
      { backend, option: "rootDir" },
    );
  }
  let real: string;
  try {
    real = fs.realpathSync(rootDir);
  } catch {
    throw invalidOption(backend, "rootDir", rootDir, "must be an existing directory");
  }
  if (!fs.statSync(real).isDirectory()) {
    throw invalidOption(backend, "rootDir", rootDir, "must be a directory, not a file");
  }
  return real;
}
