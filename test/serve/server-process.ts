import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { resolve } from "node:path";

/** The repo root, and the sub-package that holds LangGraph's server (`serve/`). */
export const REPO_ROOT = resolve(import.meta.dirname, "../..");
export const SERVE_DIR = resolve(REPO_ROOT, "serve");

/**
 * Whether `serve/node_modules` is installed (`.ci/setup` does it). Without it the server
 * tests must not pass silently: with `CI=true` this throws, otherwise it warns and returns
 * false so the caller can skip.
 */
export function serveInstalled(): boolean {
  if (existsSync(resolve(SERVE_DIR, "node_modules/@langchain/langgraph-cli/package.json"))) {
    return true;
  }
  const reason = "serve/node_modules is missing: run (cd serve && npm ci)";
  if (process.env.CI === "true") throw new Error(`${reason}; CI must run the server tests.`);
  console.warn(`Skipping the LangGraph server tests: ${reason}.`);
  return false;
}

/** A port free on 127.0.0.1 right now (the OS picks it). */
export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

/** A server process started by `startServer`: its URL, its output so far, and `stop()`. */
export interface ServerProcess {
  url: string;
  output(): string;
  /**
   * SIGTERM to the leader, then waits until its whole process group has exited (the server
   * flushes its storage first). Only past `STOP_DEADLINE_MS` is the group killed, and then
   * stop() throws: a slow machine waits, it never cuts the flush.
   */
  stop(): Promise<void>;
  /** SIGKILL to the whole process group (no flush, no shutdown hook); resolves once it exited. */
  kill(): Promise<void>;
}

/** The environment for a server under test: no provider keys (the scripted model runs). */
export function serverEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const key of ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "LANGSMITH_API_KEY"]) delete env[key];
  env.LANGSMITH_TRACING = "false";
  env.LANGCHAIN_TRACING_V2 = "false";
  env.BROWSER = "none";
  env.LANGGRAPH_CLI_NO_ANALYTICS = "1"; // the CLI reports each command to a remote host otherwise
  return env;
}

/**
 * Starts `command args` in its own process group and waits (at most `timeoutMs`) until
 * `GET <url>/ok` answers 200 with `headers`. Fails early with the server's output when the
 * process exits first.
 */
export async function startServer(options: {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  port: number;
  headers?: Record<string, string>;
  timeoutMs?: number;
}): Promise<ServerProcess> {
  const url = `http://127.0.0.1:${options.port}`;
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const server: ServerProcess = {
    url,
    output: () => log,
    stop: () => stopGroup(child, exited, () => log),
    kill: async () => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
      await exited;
    },
  };
  const deadline = Date.now() + (options.timeoutMs ?? 90_000);
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  while (Date.now() < deadline) {
    if (gone) throw new Error(`the server exited before it was up:\n${log}`);
    try {
      const res = await fetch(`${url}/ok`, {
        headers: options.headers,
        signal: AbortSignal.timeout(2000),
      });
      if (res.ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await server.stop();
  throw new Error(`the server was not up after ${options.timeoutMs ?? 90_000} ms:\n${log}`);
}

/** How long stop() waits for the server to exit on its own; a deadline for a hung server only. */
export const STOP_DEADLINE_MS = 100_000;

async function stopGroup(
  child: ChildProcess,
  exited: Promise<void>,
  output: () => string,
): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  const signal = (sig: NodeJS.Signals | 0): boolean => {
    try {
      process.kill(-pid, sig);
      return true;
    } catch {
      return false; // the group is gone
    }
  };
  // SIGTERM to the leader alone: it passes it down (langgraphjs -> tsx -> server), and the
  // server flushes its storage on it. A second SIGTERM would kill the server mid-flush
  // (exit-hook listens once) and truncate its files, so never signal the whole group first.
  try {
    process.kill(pid, "SIGTERM");
  } catch {
    // the leader is gone; its group may not be
  }
  const deadline = Date.now() + STOP_DEADLINE_MS;
  while (signal(0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const hung = signal("SIGKILL");
  await exited;
  if (hung) {
    throw new Error(
      `the server did not exit within ${STOP_DEADLINE_MS / 1000} s of SIGTERM and was killed (its storage may not be flushed):\n${output()}`,
    );
  }
}
