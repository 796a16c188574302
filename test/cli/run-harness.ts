import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startFakeAnthropic } from "../wire/fake-anthropic.js";
import { startFakeOpenAi } from "../wire/fake-openai.js";
import type { FakeApi } from "../wire/wire-rules.js";
import { CLI_ARGV } from "./delve-bin.js";

// Runs the real `delve` binary as a child process in a temporary workspace, with the real
// ChatOpenAI / ChatAnthropic pointed at the local fake provider servers by their SDKs' own
// environment variables. Spawns are async: the fakes answer from this process.

/** What one `delve` process printed and how it ended. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON lines (stream-json). */
  events(): any[];
}

/** The fakes and a fresh workspace for one test file. */
export interface Harness {
  openai: FakeApi;
  anthropic: FakeApi;
  /** A new empty workspace (a real directory). */
  workspace(files?: Record<string, string>): string;
  /** The child env: no real keys, the fakes' URLs, a private config home. */
  env(extra?: Record<string, string | undefined>): NodeJS.ProcessEnv;
  delve(
    cwd: string,
    args: string[],
    options?: { env?: NodeJS.ProcessEnv; input?: string },
  ): Promise<CliRun>;
  /** Starts `delve` without waiting (for kill -9 and races). */
  start(
    cwd: string,
    args: string[],
    options?: { env?: NodeJS.ProcessEnv },
  ): { child: ChildProcess; done: Promise<CliRun> };
  close(): Promise<void>;
}

export async function startHarness(): Promise<Harness> {
  const [openai, anthropic] = await Promise.all([startFakeOpenAi(), startFakeAnthropic()]);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "delve-run-"));
  const configHome = path.join(root, "config");
  let n = 0;
  const env = (extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv => {
    const out: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: root,
      XDG_CONFIG_HOME: configHome,
      NO_COLOR: "1",
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: openai.url,
      ANTHROPIC_API_KEY: "sk-ant-test",
      ANTHROPIC_BASE_URL: anthropic.url.replace(/\/v1$/, ""),
    };
    for (const [k, v] of Object.entries(extra)) {
      if (v === undefined) delete out[k];
      else out[k] = v;
    }
    return out;
  };
  const start: Harness["start"] = (cwd, args, options = {}) => {
    const child = spawn(process.execPath, [...CLI_ARGV, ...args], {
      cwd,
      env: options.env ?? env(),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d) => {
      stdout += d;
    });
    child.stderr!.on("data", (d) => {
      stderr += d;
    });
    const done = new Promise<CliRun>((resolve) => {
      child.on("close", (code) =>
        resolve({
          code,
          stdout,
          stderr,
          events: () =>
            stdout
              .split("\n")
              .filter((l) => l.trim())
              .map((l) => JSON.parse(l)),
        }),
      );
    });
    return { child, done };
  };
  return {
    openai,
    anthropic,
    workspace(files = {}) {
      const dir = path.join(root, `ws${++n}`);
      for (const [file, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        fs.writeFileSync(path.join(dir, file), text);
      }
      fs.mkdirSync(dir, { recursive: true });
      return fs.realpathSync(dir);
    },
    env,
    start,
    delve(cwd, args, options = {}) {
      const run = start(cwd, args, options);
      run.child.stdin!.end(options.input ?? "");
      return run.done;
    },
    async close() {
      await Promise.all([openai.close(), anthropic.close()]);
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
