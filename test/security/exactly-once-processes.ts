/**
 * Child processes for the racing suites: each runs a tsx script that prints "ready", waits
 * for a line on stdin, acts, and prints one JSON line last. Starting several and calling
 * `go()` on all of them makes them act at the same instant.
 */
import { type ChildProcessByStdio, spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";

/** One racing child process. */
export interface Racer {
  child: ChildProcessByStdio<Writable, Readable, null>;
  /** Resolves once the script printed `line` (default "ready"). */
  printed(line?: string): Promise<void>;
  go(): void;
  /** The last line printed, parsed, once the process exited; undefined if it printed none. */
  done: Promise<any>;
}

/** Starts `node --import tsx script ...args` with `env` added to ours. */
export function startRacer(
  script: string,
  args: string[],
  env: Record<string, string> = {},
): Racer {
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "inherit"],
  });
  let out = "";
  const waiters: Array<() => void> = [];
  child.stdout.on("data", (chunk) => {
    out += chunk;
    for (const wake of waiters.splice(0)) wake();
  });
  const printed = (line = "ready") =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (out.split("\n").includes(line)) resolve();
        else if (child.exitCode !== null)
          reject(new Error(`exited before printing ${line}: ${out}`));
        else waiters.push(check);
      };
      child.once("exit", check);
      check();
    });
  const done = new Promise<any>((resolve) =>
    child.on("exit", () => {
      const last = out.trim().split("\n").at(-1);
      try {
        resolve(last ? JSON.parse(last) : undefined);
      } catch {
        resolve(undefined);
      }
    }),
  );
  return { child, printed, go: () => child.stdin.write("go\n"), done };
}
