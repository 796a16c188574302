import { spawn } from "node:child_process";
import fs from "node:fs";
import { trimPartialUtf8 } from "../protocol/media-types.js";
import type { ExecuteResult } from "../protocol/protocol.js";

/** Options of `runProcess`. */
export interface RunProcessOptions {
  /** Working directory of the command. */
  cwd: string;
  /** The complete environment of the command (nothing is inherited implicitly). */
  env: Record<string, string>;
  /** Seconds before the command and every process it started are killed. */
  timeoutSeconds: number;
  /** Output (stdout and stderr together) kept; the rest is dropped and `truncated` set. */
  maxOutputBytes: number;
  /** When aborted, the process tree is killed as at the timeout. */
  signal?: AbortSignal;
}

// After the command exits, how long background processes may keep its output pipes before
// the result is returned without them.
const PIPE_GRACE_MS = 200;
// After a timeout kill, how long to wait for the process to be reaped.
const KILL_WAIT_MS = 2000;

/**
 * Runs a command and resolves with its output and exit code; never rejects. A string runs
 * under `/bin/sh -c` with stderr joined to stdout, so the two interleave exactly; an argv
 * array runs as is (its stderr is merged by arrival). The command leads its own process
 * group: at the timeout the whole group, background children included, and any other
 * descendant found in `/proc`, is killed with SIGKILL, and the result has `timedOut: true`,
 * `exitCode: null` and says so in its output.
 *
 * @example
 * const result = await runProcess("ls -la", {
 *   cwd: "/srv/work", env: { PATH: "/usr/bin:/bin" }, timeoutSeconds: 30, maxOutputBytes: 100_000,
 * });
 */
export function runProcess(
  command: string | readonly string[],
  options: RunProcessOptions,
): Promise<ExecuteResult> {
  const argv =
    typeof command === "string" ? ["/bin/sh", "-c", `exec 2>&1; ${command}`] : [...command];
  return new Promise((resolve) => {
    const output = new OutputBuffer(options.maxOutputBytes);
    let timedOut = false;
    let settled = false;
    let graceTimer: NodeJS.Timeout | undefined;
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: options.cwd,
      env: options.env,
      detached: true, // its own process group, so the group can be killed as one
      stdio: ["ignore", "pipe", "pipe"],
    });
    const finish = (result: ExecuteResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(killTimer);
      clearTimeout(graceTimer);
      options.signal?.removeEventListener("abort", onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve(result);
    };
    let cancelled = false;
    const kill = () => {
      if (timedOut || settled) return;
      timedOut = true;
      if (child.pid !== undefined) killProcessTree(child.pid);
      // A process stuck in the kernel may not die at once: answer anyway.
      graceTimer = setTimeout(() => done(null), KILL_WAIT_MS);
    };
    const killTimer = setTimeout(kill, options.timeoutSeconds * 1000);
    const onAbort = () => {
      cancelled = true;
      kill();
    };
    if (options.signal?.aborted) queueMicrotask(onAbort);
    else options.signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout?.on("data", (chunk: Buffer) => output.add(chunk));
    child.stderr?.on("data", (chunk: Buffer) => output.add(chunk));
    child.on("error", (error: NodeJS.ErrnoException) => {
      finish({
        output: output.text(),
        exitCode: null,
        truncated: output.truncated,
        error: {
          code: "io",
          message: `could not start the command: ${error.code ?? error.message}`,
        },
      });
    });
    const done = (code: number | null) => {
      if (!timedOut) {
        finish({ output: output.text(), exitCode: code, truncated: output.truncated });
        return;
      }
      const text = output.text();
      const note = cancelled
        ? "Command cancelled and killed."
        : `Command timed out after ${options.timeoutSeconds} s and was killed.`;
      finish({
        output: text.length === 0 || text.endsWith("\n") ? `${text}${note}` : `${text}\n${note}`,
        exitCode: null,
        truncated: output.truncated,
        timedOut: true,
      });
    };
    // "close" waits for the pipes; a background process may hold them open for long after
    // "exit", so the result is returned a short grace period after the exit at the latest.
    child.on("close", (code) => done(code));
    child.on("exit", (code) => {
      graceTimer = setTimeout(() => done(code), PIPE_GRACE_MS);
    });
  });
}

/**
 * Kills a process group and every descendant of its leader with SIGKILL. Descendants are
 * stopped first and found through `/proc` (Linux), so processes that left the group with
 * `setsid` but are still children are caught too; a double-forked daemon re-parented to
 * init is not.
 *
 * @example
 * killProcessTree(child.pid!);
 */
export function killProcessTree(pid: number): void {
  signal(-pid, "SIGSTOP");
  const found = new Set<number>();
  // Stopped processes cannot fork; a few rounds catch children started while scanning.
  for (let round = 0; round < 4; round++) {
    let fresh = 0;
    for (const descendant of descendantsOf(pid)) {
      if (found.has(descendant)) continue;
      found.add(descendant);
      signal(descendant, "SIGSTOP");
      fresh++;
    }
    if (fresh === 0) break;
  }
  signal(-pid, "SIGKILL");
  signal(pid, "SIGKILL");
  for (const descendant of found) signal(descendant, "SIGKILL");
}

function signal(target: number, name: NodeJS.Signals): void {
  try {
    process.kill(target, name);
  } catch {
    // Already gone, or not ours: nothing to do.
  }
}

// Descendants of `pid`, from the parent pids in /proc/<pid>/stat. Empty without /proc.
function descendantsOf(pid: number): number[] {
  let names: string[];
  try {
    names = fs.readdirSync("/proc");
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue;
    }
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so cut at the last ")".
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    const list = children.get(ppid) ?? [];
    list.push(Number(name));
    children.set(ppid, list);
  }
  const out: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

// Keeps the first `max` bytes of output and remembers whether more came.
class OutputBuffer {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  truncated = false;

  constructor(private readonly max: number) {}

  add(chunk: Buffer): void {
    const room = this.max - this.kept;
    if (chunk.length > room) this.truncated = true;
    if (room <= 0) return;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(part);
    this.kept += part.length;
  }

  text(): string {
    const bytes = Buffer.concat(this.chunks);
    // A cut may split a multi-byte character: drop the partial tail instead of showing U+FFFD.
    return bytes
      .subarray(0, this.truncated ? trimPartialUtf8(bytes) : bytes.length)
      .toString("utf8");
  }
}
