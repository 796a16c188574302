import fs from "node:fs";
import nodePath from "node:path";
import { ConfigurationError } from "../../errors/configuration-error.js";
import { runProcess } from "../disk/process-runner.js";
import { Confinement, errnoOf, FsFailure } from "../disk/safe-fs.js";
import { writeAll } from "../disk/safe-fs-core.js";
import { invalidOption, rejectUnknownOptions } from "../protocol/backend-options.js";
import { commandInputError } from "../protocol/command-input.js";
import { activePathPolicy } from "../protocol/path-policy.js";
import { checkVirtualPath, isUnder } from "../protocol/paths.js";
import type {
  BackendError,
  ExecuteOptions,
  ExecuteResult,
  ExecutionFacts,
  FileDownloadResult,
  FileUpload,
  FileUploadResult,
  PathRestrictable,
} from "../protocol/protocol.js";
import { BaseSandbox } from "./base-sandbox.js";
import {
  buildBwrapArgs,
  planRestrictionMounts,
  probeBubblewrap,
  SANDBOX_WORKSPACE,
  type SandboxLimits,
} from "./bwrap-args.js";
import { checkEnv, positiveInteger, resolveRootDir } from "./sandbox-options.js";

/** Options of `SandboxBackend`. */
export interface SandboxBackendOptions {
  /** The workspace: an existing host directory, mounted read-write at /workspace inside. */
  rootDir: string;
  /** Seconds before a command and every process it started are killed. Default 120. */
  timeout?: number;
  /** Output bytes kept per command; the result is marked `truncated` past it. Default 100,000. */
  maxOutputBytes?: number;
  /**
   * Address space per process, in MB (`RLIMIT_AS`), and the size of `/tmp` and of `/dev/shm`
   * (each a tmpfs, so memory; unsized, either may fill half the host's RAM). None by default: V8 (Node's WebAssembly,
   * `fetch`) and JVMs reserve far more address space than they use and fail under a tight one.
   * Needs bubblewrap 0.8 or later.
   */
  memoryMb?: number;
  /**
   * `RLIMIT_NPROC`: processes of the sandbox's user, counted host-wide; the kernel does not
   * apply it to root, so running as root only the timeout bounds a fork bomb. Default 4,096.
   */
  maxProcesses?: number;
  /** Largest file a command may write, in MB (`RLIMIT_FSIZE`). Default 1,024. */
  maxFileSizeMb?: number;
  /** Environment variables of every command, on top of PATH, HOME=/tmp and LANG. */
  env?: Record<string, string>;
  /**
   * Mount `/proc` inside. Default true. `false` hides the host's paths: with `/proc`, the
   * mount table (`/proc/self/mountinfo`) shows where `rootDir` and each restriction mount
   * are on the host (the kernel prints a bind mount's source path). Without it, commands
   * that need `/proc` fail: `ps`, bash's `<(...)` and `/dev/fd`, Node's `os.cpus()`.
   */
  proc?: boolean;
}

const OPTION_KEYS = [
  "rootDir",
  "timeout",
  "maxOutputBytes",
  "memoryMb",
  "maxProcesses",
  "maxFileSizeMb",
  "env",
  "proc",
];

// Internal scripts (ls, glob, grep listings) may print far more than a model should read.
const INTERNAL_OUTPUT_BYTES = 64 * 1024 * 1024;
const WILDCARD = /[*?[{]/;

type Located = { path: string; segments: string[] } | { error: BackendError };

/**
 * An isolated local sandbox on bubblewrap (`bwrap`, Debian package `bubblewrap`): `execute`
 * runs `/bin/sh -c` in `/workspace`, which is `rootDir` and the only writable place. The
 * command sees `/usr` read-only, a few `/etc` files (never `/etc/shadow`), a fresh empty
 * `/tmp`, and nothing of the host's home, `/root` or the project checkout; it has no network
 * (a server on the host's loopback is unreachable), no capabilities (so it cannot unmount or
 * remount its way out, even when run as root), read-only kernel settings (`/proc/sys`),
 * per-process limits on file size, processes and optionally memory, and an output cap. The
 * sandbox lives as long as the command: background processes die when it exits, everything
 * is killed at `timeout`, and the sandbox dies with this process. The file tools work through
 * `BaseSandbox`; host-side `uploadFiles`/`downloadFiles` never follow a symlink out of
 * `rootDir` (a command may plant one) and refuse hard-linked files.
 *
 * `restrictPaths` enforces literal-path permission rules by mounts. Without bubblewrap the
 * constructor throws a `ConfigurationError` (`SANDBOX_UNAVAILABLE`) saying how to install it.
 *
 * @example
 * const sandbox = new SandboxBackend({ rootDir: "/srv/agent-workspace", timeout: 60 });
 * const { output, exitCode } = await sandbox.execute("python3 -m pytest -q");
 */
export class SandboxBackend extends BaseSandbox implements PathRestrictable {
  readonly id: string;
  readonly workspace = SANDBOX_WORKSPACE;
  /** The real host path of the workspace. */
  readonly rootDir: string;
  readonly timeout: number;
  readonly maxOutputBytes: number;
  readonly limits: SandboxLimits;
  /** Whether commands see a `/proc` (see {@link SandboxBackendOptions.proc}). */
  readonly proc: boolean;
  private readonly options: SandboxBackendOptions;
  private readonly env: Record<string, string>;
  private readonly bwrap: string;
  private readonly files: Confinement;
  #hidden: readonly string[] = [];
  #readOnly: readonly string[] = [];

  constructor(options: SandboxBackendOptions) {
    super();
    rejectUnknownOptions(options, OPTION_KEYS, "SandboxBackend");
    this.options = { ...options };
    this.rootDir = resolveRootDir(options.rootDir);
    const { timeout = 120, maxOutputBytes = 100_000 } = options;
    if (typeof timeout !== "number" || !(timeout > 0) || !Number.isFinite(timeout)) {
      throw invalidOption("SandboxBackend", "timeout", timeout, "must be > 0 seconds");
    }
    this.timeout = timeout;
    this.maxOutputBytes = positiveInteger("maxOutputBytes", maxOutputBytes);
    this.limits = {
      memoryMb:
        options.memoryMb === undefined ? undefined : positiveInteger("memoryMb", options.memoryMb),
      maxProcesses: positiveInteger("maxProcesses", options.maxProcesses ?? 4096),
      maxFileSizeMb: positiveInteger("maxFileSizeMb", options.maxFileSizeMb ?? 1024),
    };
    this.env = checkEnv(options.env);
    if (options.proc !== undefined && typeof options.proc !== "boolean") {
      throw invalidOption("SandboxBackend", "proc", options.proc, "must be true or false");
    }
    this.proc = options.proc ?? true;
    this.files = new Confinement(this.rootDir, true);
    this.id = `bwrap:${this.rootDir}`;
    const probe = probeBubblewrap();
    if (!probe.ok) {
      const message = probe.missing
        ? "SandboxBackend needs bubblewrap (bwrap), which is not on PATH. Install it with: apt-get install bubblewrap"
        : `SandboxBackend cannot start bubblewrap here (${probe.detail}). It needs root or unprivileged user namespaces.`;
      throw new ConfigurationError("SANDBOX_UNAVAILABLE", message, { detail: probe.detail });
    }
    if (this.limits.memoryMb !== undefined && !probe.sizesTmpfs) {
      throw new ConfigurationError(
        "SANDBOX_UNAVAILABLE",
        "SandboxBackend: memoryMb also sizes /tmp, which needs bubblewrap 0.8 or later (bwrap --version); upgrade it or leave memoryMb unset.",
      );
    }
    this.bwrap = probe.path;
  }

  /** Commands run isolated, in /workspace (`rootDir`), without network. */
  executionFacts(): ExecutionFacts {
    return {
      workdir: SANDBOX_WORKSPACE,
      isolated: true,
      network: false,
      timeoutSeconds: this.timeout,
    };
  }

  /**
   * Runs `command` with `/bin/sh -c` inside the sandbox, in /workspace, stdout and stderr
   * interleaved. `options.timeout` (seconds) overrides the backend's timeout.
   */
  async execute(command: string, options: ExecuteOptions = {}): Promise<ExecuteResult> {
    if (typeof command !== "string" || command.trim().length === 0) {
      return failed("unsupported", "the command is empty");
    }
    const refused = commandInputError(command);
    if (refused) return failed(refused.code, refused.message);
    const timeout = options.timeout ?? this.timeout;
    if (typeof timeout !== "number" || !(timeout > 0) || !Number.isFinite(timeout)) {
      return failed("unsupported", `timeout must be a positive number of seconds, got ${timeout}`);
    }
    return this.run(command, timeout, this.maxOutputBytes, options.signal);
  }

  protected override runScript(script: string): Promise<ExecuteResult> {
    return this.run(script, this.timeout, INTERNAL_OUTPUT_BYTES);
  }

  /**
   * A copy of this sandbox whose commands cannot read `hide` paths (a directory is covered
   * by an empty read-only tmpfs, a file by /dev/null) nor write `readOnly` ones (bound
   * read-only), and whose host-side uploads and downloads refuse them too. Paths are literal
   * virtual paths; a missing one is created as an empty directory so it can be mounted over.
   * Throws `ConfigurationError` `UNENFORCEABLE_RULE` naming a path with wildcards, an invalid
   * path, or one that goes through a symbolic link.
   *
   * @example
   * const guarded = sandbox.restrictPaths({ hide: ["/secrets"], readOnly: ["/policies"] });
   */
  restrictPaths(rules: { hide: string[]; readOnly: string[] }): SandboxBackend {
    const hide = (rules.hide ?? []).map(literalPath);
    const readOnly = (rules.readOnly ?? []).map(literalPath);
    const next = new SandboxBackend(this.options);
    next.#hidden = [...new Set([...this.#hidden, ...hide])];
    next.#readOnly = [...new Set([...this.#readOnly, ...readOnly])];
    const mounts = planRestrictionMounts(next.rootDir, next.#hidden, next.#readOnly);
    if ("error" in mounts) {
      throw new ConfigurationError(
        "UNENFORCEABLE_RULE",
        `SandboxBackend cannot enforce a rule on ${mounts.path}: ${mounts.error}`,
        { path: mounts.path },
      );
    }
    return next;
  }

  async uploadFiles(files: FileUpload[]): Promise<FileUploadResult[]> {
    return files.map(({ path, content }): FileUploadResult => {
      const at = this.locate(path, "write");
      if ("error" in at) return { path, error: at.error };
      try {
        const file = this.files.openFile(at.segments, at.path, "write");
        try {
          const refused = this.refusalAt(file.fd, at.path, "write");
          if (refused) {
            if (file.created) fs.unlinkSync(fs.readlinkSync(`/proc/self/fd/${file.fd}`));
            return { path: at.path, error: refused };
          }
          fs.ftruncateSync(file.fd, 0);
          writeAll(file.fd, content);
        } finally {
          fs.closeSync(file.fd);
        }
        return { path: at.path };
      } catch (error) {
        return { path: at.path, error: failureOf(error, at.path) };
      }
    });
  }

  async downloadFiles(paths: string[]): Promise<FileDownloadResult[]> {
    return paths.map((path): FileDownloadResult => {
      const at = this.locate(path, "read");
      if ("error" in at) return { path, error: at.error };
      try {
        const file = this.files.openFile(at.segments, at.path, "read");
        try {
          const refused = this.refusalAt(file.fd, at.path, "read");
          if (refused) return { path: at.path, error: refused };
          return { path: at.path, content: new Uint8Array(fs.readFileSync(file.fd)) };
        } finally {
          fs.closeSync(file.fd);
        }
      } catch (error) {
        return { path: at.path, error: failureOf(error, at.path) };
      }
    });
  }

  private async run(
    command: string,
    timeout: number,
    maxOutputBytes: number,
    signal?: AbortSignal,
  ) {
    const mounts = planRestrictionMounts(this.rootDir, this.#hidden, this.#readOnly);
    if ("error" in mounts) {
      return failed(
        "permission_denied",
        `cannot enforce the rule on ${mounts.path}: ${mounts.error}`,
      );
    }
    const args = buildBwrapArgs({
      workspace: this.rootDir,
      mounts,
      env: this.env,
      limits: this.limits,
      command,
      proc: this.proc,
    });
    // bubblewrap is pid 1 inside: its environment shows in /proc/1/environ, so it gets none.
    return runProcess([this.bwrap, ...args], {
      cwd: this.rootDir,
      env: {},
      timeoutSeconds: timeout,
      maxOutputBytes,
      ...(signal ? { signal } : {}),
    });
  }

  // A canonical path and its segments, or the error refusing it before any disk access: an
  // invalid path, a restricted one, or one whose existing part resolves into a restricted one.
  private locate(input: string, mode: "read" | "write"): Located {
    const checked = checkVirtualPath(input);
    if (!checked.ok) {
      const message = `invalid path ${JSON.stringify(input)}: ${checked.reason}`;
      return { error: { code: "invalid_path", message } };
    }
    const path = checked.path;
    if (path === "/") return { error: { code: "is_directory", message: "/ is a directory" } };
    const segments = path.split("/").filter(Boolean);
    const refused = this.refusal(path, mode) ?? this.refusal(this.resolved(segments), mode);
    if (refused) return { error: refused };
    return { path, segments };
  }

  // The virtual path `segments` resolve to through symlinks, as far as they exist now. A
  // first check only: the descriptor finally opened is checked again by `refusalAt`.
  private resolved(segments: string[]): string {
    for (let n = segments.length; n >= 0; n--) {
      let real: string;
      try {
        real = fs.realpathSync(nodePath.join(this.rootDir, ...segments.slice(0, n)));
      } catch {
        continue;
      }
      if (real !== this.rootDir && !real.startsWith(`${this.rootDir}/`)) return "/";
      const rest = segments.slice(n);
      return `${real.slice(this.rootDir.length)}/${rest.join("/")}`.replace(/\/+$/, "") || "/";
    }
    return "/";
  }

  private refusal(path: string, mode: "read" | "write"): BackendError | undefined {
    if (this.#hidden.some((h) => isUnder(path, h))) {
      return { code: "permission_denied", message: `${path} is hidden in this sandbox` };
    }
    if (mode === "write" && this.#readOnly.some((r) => isUnder(path, r))) {
      return { code: "permission_denied", message: `${path} is read-only in this sandbox` };
    }
    return undefined;
  }

  // The refusal for where an open descriptor really is: a symlinked parent or file may have
  // led from an allowed path into a hidden or read-only one.
  private refusalAt(fd: number, shown: string, mode: "read" | "write"): BackendError | undefined {
    const real = fs.readlinkSync(`/proc/self/fd/${fd}`);
    if (real !== this.rootDir && !real.startsWith(`${this.rootDir}/`)) {
      return { code: "permission_denied", message: `${shown} leads outside the workspace` };
    }
    const virtual = real.slice(this.rootDir.length) || "/";
    const refused = activePathPolicy()?.refusal(mode, virtual);
    if (refused !== undefined && virtual !== shown)
      return { code: "permission_denied", message: refused };
    return this.refusal(virtual, mode);
  }
}

function literalPath(path: string): string {
  if (typeof path === "string" && WILDCARD.test(path)) {
    throw new ConfigurationError(
      "UNENFORCEABLE_RULE",
      `SandboxBackend cannot enforce a rule on "${path}": the sandbox enforces rules by mounting literal paths (hidden or read-only), and this path has wildcard characters (* ? [ {). Name the files or directories literally.`,
      { path },
    );
  }
  const checked = checkVirtualPath(path);
  if (!checked.ok) {
    throw new ConfigurationError(
      "UNENFORCEABLE_RULE",
      `SandboxBackend cannot enforce a rule on ${JSON.stringify(path)}: ${checked.reason}`,
      { path },
    );
  }
  return checked.path;
}

function failed(code: BackendError["code"], message: string): ExecuteResult {
  return { output: "", exitCode: null, truncated: false, error: { code, message } };
}

const ERRNO: Record<string, BackendError["code"]> = {
  ENOENT: "not_found",
  EISDIR: "is_directory",
  ENOTDIR: "not_a_directory",
  EACCES: "permission_denied",
  EPERM: "permission_denied",
  EROFS: "permission_denied",
  ELOOP: "invalid_path",
  ENAMETOOLONG: "invalid_path",
};

// Never echoes Node's message: it names host paths.
function failureOf(error: unknown, path: string): BackendError {
  if (error instanceof FsFailure) return { code: error.code, message: error.message };
  const errno = errnoOf(error) ?? "unexpected error";
  if (errno === "ENOENT") return { code: "not_found", message: `file not found: ${path}` };
  return { code: ERRNO[errno] ?? "io", message: `${path}: ${errno}` };
}
