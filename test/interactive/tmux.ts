import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { CLI_ARGV } from "../cli/delve-bin.js";
import type { Harness } from "../cli/run-harness.js";
import { harnessPerFile } from "../run/session-ops-harness.js";

// A real pseudo-terminal for the interactive session: tmux on a private socket runs the
// `delve` binary (the same entry as the CLI tests); screens are read with capture-pane and
// waited for by their text with a deadline.

/** One tmux pane running `delve`. */
export interface Pane {
  /** Types `text` literally (no Enter). */
  type(text: string): void;
  /** Sends tmux key names: "Enter", "Escape", "C-c", "Tab", "BSpace". */
  keys(...names: string[]): void;
  /** Pastes `text` as a terminal paste does (bracketed when the program asked for it). */
  paste(text: string): void;
  /** The screen now; `history` includes what scrolled off. `escapes` keeps colour codes. */
  screen(options?: { history?: boolean; escapes?: boolean }): string;
  /** Waits until the screen (with history) shows `text`; throws with the screen at the deadline. */
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<string>;
  close(): void;
}

const SOCKET = `delve-test-${process.pid}`;
let panes = 0;

function tmux(...args: string[]): string {
  return execFileSync("tmux", ["-L", SOCKET, "-f", "/dev/null", ...args], {
    encoding: "utf8",
    env: { ...process.env, LANG: "C.UTF-8", LC_ALL: "C.UTF-8" },
  });
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Starts `delve ARGS` in a COLS x ROWS terminal in `cwd` with exactly `env` (plus TERM). */
export function startPane(options: {
  cwd: string;
  env: NodeJS.ProcessEnv;
  args: string[];
  cols?: number;
  rows?: number;
}): Pane {
  const name = `p${++panes}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "delve-pane-"));
  const script = path.join(dir, "run.sh");
  const env = { TERM: "xterm-256color", LANG: "C.UTF-8", ...options.env };
  const assignments = Object.entries(env)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${quote(String(v))}`)
    .join(" ");
  const command = [process.execPath, ...CLI_ARGV, ...options.args].map(quote).join(" ");
  // The pane stays after delve exits, so its last screen and exit code can be read.
  fs.writeFileSync(
    script,
    `cd ${quote(options.cwd)}\nenv -i ${assignments} ${command}\necho "[delve exited $?]"\nexec sleep 600\n`,
  );
  tmux(
    "new-session",
    "-d",
    "-s",
    name,
    "-x",
    String(options.cols ?? 80),
    "-y",
    String(options.rows ?? 30),
    `sh ${quote(script)}`,
  );
  const screen: Pane["screen"] = ({ history = false, escapes = false } = {}) =>
    tmux(
      "capture-pane",
      "-p",
      "-t",
      name,
      ...(history ? ["-S", "-"] : []),
      ...(escapes ? ["-e"] : []),
    );
  return {
    type: (text) => {
      tmux("send-keys", "-t", name, "-l", text);
    },
    keys: (...names) => {
      tmux("send-keys", "-t", name, ...names);
    },
    paste: (text) => {
      tmux("set-buffer", "-b", name, text);
      tmux("paste-buffer", "-p", "-d", "-b", name, "-t", name);
    },
    screen,
    async waitFor(text, timeoutMs = 45_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const now = screen({ history: true });
        if (typeof text === "string" ? now.includes(text) : text.test(now)) return now;
        if (Date.now() > deadline)
          throw new Error(`timed out waiting for ${String(text)}; the screen:\n${now}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close() {
      try {
        tmux("kill-session", "-t", name);
      } catch {}
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Stops this test file's tmux server. */
export function stopTmux(): void {
  try {
    tmux("kill-server");
  } catch {}
}

/**
 * The fakes and workspaces of one pty test file (started before its tests), and its tmux
 * server stopped after them.
 */
export function tmuxHarness(): Harness {
  const h = harnessPerFile({ inProcess: false });
  afterAll(stopTmux);
  return h;
}

/** Waits until `check()` is true (polled every 50 ms); throws `what` at the deadline. */
export async function until(check: () => boolean, what: string, timeoutMs = 45_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
