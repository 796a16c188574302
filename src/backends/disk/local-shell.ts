import { invalidOption, rejectUnknownOptions } from "../protocol/backend-options.js";
import { commandInputError } from "../protocol/command-input.js";
import type {
  ExecutableBackend,
  ExecuteOptions,
  ExecuteResult,
  ExecutionFacts,
} from "../protocol/protocol.js";
import { FilesystemBackend, type FilesystemBackendOptions } from "./filesystem.js";
import { runProcess } from "./process-runner.js";

/** Options of `LocalShellBackend`: the filesystem options plus the shell's limits. */
export interface LocalShellBackendOptions extends FilesystemBackendOptions {
  /** Seconds before a command and every process it started are killed. Default 120. */
  timeout?: number;
  /** Output bytes kept per command; the result is marked `truncated` past it. Default 100,000. */
  maxOutputBytes?: number;
  /** Environment variables of every command, on top of a minimal PATH (or the inherited env). */
  env?: Record<string, string>;
  /** Start from this process's environment (secrets included) instead of an empty one. */
  inheritEnv?: boolean;
}

/** The PATH a command gets when neither `env` nor `inheritEnv` provides one. */
export const MINIMAL_PATH = "/usr/local/bin:/usr/bin:/bin";

const OPTION_KEYS = [
  "rootDir",
  "virtualMode",
  "maxFileSizeMb",
  "timeout",
  "maxOutputBytes",
  "env",
  "inheritEnv",
];

/**
 * `FilesystemBackend` plus `execute`: shell commands (`/bin/sh -c`) run on the host, in
 * `rootDir`. **It is NOT isolated.** A command runs with this process's user and can read,
 * change or delete anything that user can, reach the network, and start processes;
 * `virtualMode` confines only the file tools, not commands. Use it for trusted work on
 * your own machine; use `SandboxBackend` for anything else.
 *
 * What it does limit: each command's environment is empty (only PATH) unless `env` or
 * `inheritEnv: true` says otherwise, so API keys are not handed to commands by accident; at
 * `timeout` seconds the command's whole process group, background children included, is
 * killed and the result says so; output beyond `maxOutputBytes` is dropped and marked
 * `truncated`.
 *
 * @example
 * const backend = new LocalShellBackend({ rootDir: process.cwd(), timeout: 60 });
 * const { output, exitCode } = await backend.execute("npm test");
 */
export class LocalShellBackend extends FilesystemBackend implements ExecutableBackend {
  readonly timeout: number;
  readonly maxOutputBytes: number;
  private readonly env: Record<string, string>;

  constructor(options: LocalShellBackendOptions) {
    if (new.target === LocalShellBackend) {
      rejectUnknownOptions(options, OPTION_KEYS, "LocalShellBackend");
    }
    super(options);
    const { timeout = 120, maxOutputBytes = 100_000, env, inheritEnv = false } = options;
    if (typeof timeout !== "number" || !(timeout > 0) || !Number.isFinite(timeout)) {
      throw invalidOption("LocalShellBackend", "timeout", timeout, "must be > 0 seconds");
    }
    if (!Number.isInteger(maxOutputBytes) || maxOutputBytes <= 0) {
      throw invalidOption(
        "LocalShellBackend",
        "maxOutputBytes",
        maxOutputBytes,
        "must be a positive integer",
      );
    }
    if (typeof inheritEnv !== "boolean") {
      throw invalidOption("LocalShellBackend", "inheritEnv", inheritEnv, "must be a boolean");
    }
    this.timeout = timeout;
    this.maxOutputBytes = maxOutputBytes;
    this.env = buildEnv(env, inheritEnv);
  }

  /** Commands run on the host, in `rootDir`, with the network this process has. */
  executionFacts(): ExecutionFacts {
    return { workdir: this.rootDir, isolated: false, network: true, timeoutSeconds: this.timeout };
  }

  /**
   * Runs `command` under `/bin/sh -c` in `rootDir`, stdout and stderr interleaved.
   * `options.timeout` (seconds) overrides the backend's timeout for this command.
   */
  async execute(command: string, options: ExecuteOptions = {}): Promise<ExecuteResult> {
    if (typeof command !== "string" || command.trim().length === 0) {
      return failed("the command is empty");
    }
    const refused = commandInputError(command);
    if (refused) return failed(refused.message, refused.code);
    const timeout = options.timeout ?? this.timeout;
    if (typeof timeout !== "number" || !(timeout > 0) || !Number.isFinite(timeout)) {
      return failed(`timeout must be a positive number of seconds, got ${String(timeout)}`);
    }
    return runProcess(command, {
      cwd: this.rootDir,
      env: { ...this.env },
      timeoutSeconds: timeout,
      maxOutputBytes: this.maxOutputBytes,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }
}

function failed(message: string, code: "unsupported" | "too_large" = "unsupported"): ExecuteResult {
  return { output: "", exitCode: null, truncated: false, error: { code, message } };
}

function buildEnv(env: unknown, inheritEnv: boolean): Record<string, string> {
  const base: Record<string, string> = {};
  if (inheritEnv) {
    for (const [key, value] of Object.entries(process.env)) {
      if (value !== undefined) base[key] = value;
    }
  } else {
    base.PATH = MINIMAL_PATH;
  }
  if (env === undefined) return base;
  if (typeof env !== "object" || env === null || Array.isArray(env)) {
    throw invalidOption("LocalShellBackend", "env", env, "must be an object of strings");
  }
  for (const [key, value] of Object.entries(env)) {
    if (typeof value !== "string") {
      throw invalidOption("LocalShellBackend", `env.${key}`, value, "must be a string");
    }
    base[key] = value;
  }
  return base;
}
