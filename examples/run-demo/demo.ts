// `delve run` itself, offline: the real CLI in a child process replays a committed cassette
// (examples/run-demo/run.cassette.json, made by record.ts) in a fresh workspace.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The cassette `npm run demo` replays. */
export const DEMO_CASSETTE = fileURLToPath(new URL("./run.cassette.json", import.meta.url));

/** The demo's task. */
export const DEMO_TASK = "Read TODO.md and write a one-line summary of what is left to SUMMARY.md.";

/** The command that re-records the cassette when a change to the agent's text breaks it. */
export const RECORD_COMMAND = "npx tsx examples/run-demo/record.ts";

// Fixed: without a sandbox the execute tool's description names the workspace's host path, which
// is part of every recorded request, so recording and replaying must use the same directory.
const WORKSPACE = path.join(os.tmpdir(), "delve-demo-workspace");

/** What one `delve` process printed. */
export interface CliOutput {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A fresh demo workspace (removed and recreated): a TODO list to summarise. */
export function freshWorkspace(): string {
  fs.rmSync(WORKSPACE, { recursive: true, force: true });
  fs.mkdirSync(WORKSPACE, { recursive: true });
  fs.writeFileSync(
    path.join(WORKSPACE, "TODO.md"),
    "# TODO\n- [x] parse the config\n- [ ] retry failed uploads\n- [ ] document the CLI\n",
  );
  return WORKSPACE;
}

// The built binary when there is one (CI builds first), else the source through tsx.
const ENTRY = fs.existsSync(path.join(ROOT, "dist/cli/main.js"))
  ? path.join(ROOT, "dist/cli/main.js")
  : path.join(ROOT, "src/cli/main.ts");

/** Runs `delve ARGS` in `cwd`; async, so a fake provider in this process can answer it. */
export function delve(
  cwd: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<CliOutput> {
  const child = spawn(process.execPath, ["--import", import.meta.resolve("tsx"), ENTRY, ...args], {
    cwd,
    env: { ...env, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => {
    stdout += d;
  });
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The flags both the recording and the replay run with (the thread keeps them). */
export const RUN_FLAGS = ["--sandbox", "none", "--approval", "edits"];

/**
 * Replays the demo: `delve run --replay` in a fresh workspace, then `delve threads show` of its
 * thread. No network and no key: the cassette answers every model call.
 */
export async function replayDemo(): Promise<{
  workspace: string;
  run: CliOutput;
  show: CliOutput;
}> {
  const workspace = freshWorkspace();
  const env = { ...process.env };
  delete env.OPENAI_API_KEY;
  delete env.ANTHROPIC_API_KEY;
  delete env.DELVE_MODEL;
  const run = await delve(
    workspace,
    ["run", "--cwd", workspace, ...RUN_FLAGS, "--replay", DEMO_CASSETTE, DEMO_TASK],
    env,
  );
  const thread = /thread (\S+)/.exec(run.stderr)?.[1];
  const show = thread
    ? await delve(workspace, ["threads", "show", thread, "--cwd", workspace], env)
    : { code: null, stdout: "", stderr: "no thread named on stderr" };
  return { workspace, run, show };
}
