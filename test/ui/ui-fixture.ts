import { startUi, type UiServer } from "../../src/ui/server.js";
import type { Harness } from "../cli/run-harness.js";

// Threads made by the real `delve run` against the fake OpenAI, and a `delve ui` over them
// in this process (its sessions reach the same fake through the process environment).

export const OPENAI = ["--model", "openai:gpt-4o-mini"];

/** A completed thread that created and edited files; returns its id. */
export async function completedThread(h: Harness, ws: string, content = "one\n"): Promise<string> {
  h.openai.script([
    { toolCalls: [{ name: "write_file", args: { file_path: "/hello.txt", content } }] },
    {
      toolCalls: [
        {
          name: "edit_file",
          args: { file_path: "/notes.txt", old_string: "alpha", new_string: "beta" },
        },
      ],
    },
    { text: "all done" },
  ]);
  const run = await h.delve(ws, [
    "run",
    "make hello\nsecond line",
    ...OPENAI,
    "--approval",
    "yolo",
    "--output",
    "json",
  ]);
  if (run.code !== 0) throw new Error(`run failed: ${run.stderr}`);
  return JSON.parse(run.stdout).thread_id;
}

/** A thread paused on an execute of `command`; returns its id. */
export async function pausedThread(
  h: Harness,
  ws: string,
  command = "echo ran >> log.txt",
): Promise<string> {
  h.openai.script([{ toolCalls: [{ name: "execute", args: { command } }] }]);
  const run = await h.delve(ws, [
    "run",
    "log it",
    ...OPENAI,
    "--sandbox",
    "none",
    "--output",
    "json",
  ]);
  if (run.code !== 3) throw new Error(`expected a pause: ${run.stderr}`);
  return JSON.parse(run.stdout).thread_id;
}

/** Starts `delve ui` over `ws` with the harness's provider environment. */
export async function serveUi(h: Harness, ws: string, host = "127.0.0.1"): Promise<UiServer> {
  const env = h.env();
  for (const key of ["OPENAI_API_KEY", "OPENAI_BASE_URL"]) process.env[key] = env[key];
  return startUi({ workspace: ws, host, port: 0, env });
}

/** A completed thread whose agent delegated to the general-purpose subagent; returns its id. */
export async function subagentThread(h: Harness, ws: string): Promise<string> {
  h.openai.script([
    {
      toolCalls: [
        {
          name: "task",
          args: { description: "write sub.txt", subagent_type: "general-purpose" },
        },
      ],
    },
    { toolCalls: [{ name: "write_file", args: { file_path: "/sub.txt", content: "sub\n" } }] },
    { text: "sub done" },
    { text: "main done" },
  ]);
  const run = await h.delve(ws, [
    "run",
    "delegate",
    ...OPENAI,
    "--approval",
    "yolo",
    "--output",
    "json",
  ]);
  if (run.code !== 0) throw new Error(`run failed: ${run.stderr}`);
  return JSON.parse(run.stdout).thread_id;
}
