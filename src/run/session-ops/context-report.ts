// What fills the model's window on the thread's next call: the system prompt and tools (as the
// surface inspector measures them, so figures match `delve surface`), the messages, and the
// file contents inside them.
import type { RunSession } from "../engine.js";

/** One part of the window: its characters and estimated tokens. */
export interface ContextPart {
  /** "system prompt", a tool's name, "messages", a file's path. */
  name: string;
  chars: number;
  tokens: number;
}

/** What `contextReport` returns: parts that do not overlap, so they add up to `total`. */
export interface ContextReport {
  /** The model's input window in tokens, when known (its profile, or the config). */
  window?: number;
  systemPrompt: ContextPart;
  /** Each tool the model is shown (name, description, schema), largest first. */
  tools: ContextPart[];
  /** The conversation, without the file contents counted under `files`. */
  messages: ContextPart & { count: number };
  /** File contents in the conversation (read_file results, write_file contents) per path. */
  files: ContextPart[];
  /** The sum of every part. */
  total: { chars: number; tokens: number };
}

/** What fills the window of the thread's next model call, part by part. */
export async function contextReport(session: RunSession): Promise<ContextReport> {
  void session;
  throw new Error("contextReport: not implemented yet");
}
