import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { openSession, type RunSession, type SessionOptions } from "../../src/run/index.js";
import { type Harness, startHarness } from "../cli/run-harness.js";
import type { WireTurn } from "../wire/wire-rules.js";

// Threads for the session-operation tests, made by the real engine in this process with the
// real ChatOpenAI against the local fake (its SDK reads the fake's URL from the environment).

/** The model every thread here runs on (no price: cost is priced through `prices`). */
export const MODEL = "openai:delve-session-ops-model";

/** A price for MODEL, so the cost report has dollars to split. */
export const PRICES = { [MODEL]: { input: 1, output: 2 } };

/** Points this process's OpenAI SDK at the fake; returns the restore. */
export function pointSdkAtFake(h: Harness): () => void {
  const saved = { ...process.env };
  const env = h.env();
  for (const key of [
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "HOME",
    "XDG_CONFIG_HOME",
    "NO_COLOR",
  ] as const) {
    process.env[key] = env[key];
  }
  return () => {
    process.env = saved;
  };
}

/**
 * The fakes and workspaces of one test file: started before its tests, closed after them.
 * With `inProcess` (the default) this process's OpenAI SDK points at the fake too, for the
 * engine called in-process; the environment is restored after the file.
 */
export function harnessPerFile(options: { inProcess?: boolean } = {}): Harness {
  let started: Harness | undefined;
  let restoreEnv: (() => void) | undefined;
  beforeAll(async () => {
    started = await startHarness();
    if (options.inProcess ?? true) restoreEnv = pointSdkAtFake(started);
  });
  afterAll(async () => {
    restoreEnv?.();
    await started?.close();
  });
  const get = (): Harness => {
    if (!started)
      throw new Error("harnessPerFile: the harness starts in beforeAll; use it in a test.");
    return started;
  };
  return {
    get openai() {
      return get().openai;
    },
    get anthropic() {
      return get().anthropic;
    },
    workspace: (files) => get().workspace(files),
    env: (extra) => get().env(extra),
    delve: (cwd, args, opts) => get().delve(cwd, args, opts),
    start: (cwd, args, opts) => get().start(cwd, args, opts),
    close: () => get().close(),
  };
}

/** One user turn: what is sent and what the fake model answers. */
export interface ScriptedTurn {
  task: string;
  replies: WireTurn[];
}

/** Opens a session on `ws` (a new thread, or `threadId`) with yolo approval and no sandbox. */
export function open(h: Harness, ws: string, threadId?: string): Promise<RunSession> {
  return openSession({
    workspace: ws,
    model: MODEL,
    approval: "yolo",
    sandbox: "none",
    prices: PRICES,
    env: h.env(),
    ...(threadId ? { threadId } : { title: "session ops" }),
  });
}

/**
 * Runs `task` on a new thread of the engine in this process (what `delve run` runs), for a
 * case that needs a thread or a pause to start from rather than the binary that made it.
 */
export async function runInProcess(
  h: Harness,
  options: Omit<SessionOptions, "env" | "title">,
  task: string,
): Promise<{ thread: string; status: string }> {
  const session = await openSession({ ...options, title: task, env: h.env() });
  try {
    let status = "";
    for await (const e of session.send(task)) {
      if (e.type === "result") status = e.status;
    }
    return { thread: session.thread.id, status };
  } finally {
    await session.close();
  }
}

/** Sends one turn and expects it to complete; returns the fake's requests of that turn. */
export async function send(h: Harness, session: RunSession, turn: ScriptedTurn) {
  const seen = h.openai.accepted().length;
  h.openai.script(turn.replies);
  let status = "";
  let error: string | undefined;
  for await (const e of session.send(turn.task)) {
    if (e.type === "result") {
      status = e.status;
      error = e.error;
    }
  }
  expect({ status, error }).toEqual({ status: "completed", error: undefined });
  return h.openai.accepted().slice(seen);
}

/** The messages of a request body as "role: text" lines. */
export function requestLines(body: any): string[] {
  return (body?.messages ?? []).map((m: any) => {
    const text = typeof m.content === "string" ? m.content : JSON.stringify(m.content ?? "");
    return `${m.role}: ${text}`;
  });
}

/** A workspace file's text, or undefined when it is absent. */
export function read(ws: string, file: string): string | undefined {
  const absolute = path.join(ws, file);
  return fs.existsSync(absolute) ? fs.readFileSync(absolute, "utf8") : undefined;
}

/** A write_file call. */
export const write = (file: string, content: string) => ({
  name: "write_file",
  args: { file_path: `/${file}`, content },
});

/** An edit_file call. */
export const edit = (file: string, from: string, to: string) => ({
  name: "edit_file",
  args: { file_path: `/${file}`, old_string: from, new_string: to },
});
