import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BaseMessage, SystemMessage } from "@langchain/core/messages";
import type { ScriptedChatModel } from "delve/testing";
import { afterEach } from "vitest";

/** An invoke input: one user turn and files seeded into the run's state. */
export const ask = (files: Record<string, string> = {}) => ({
  messages: [{ role: "user" as const, content: "hi" }],
  files,
});

/** The system prompt text of one model call ("" when there is none). */
export const systemOf = (messages: BaseMessage[]) =>
  messages.find((m) => SystemMessage.isInstance(m))?.text ?? "";

/** The system prompt of each call a scripted model received, in order. */
export const systemPrompts = (model: ScriptedChatModel) =>
  model.calls.map((c) => systemOf(c.messages));

/** A temp-directory factory whose directories are removed after each test. */
export function tempDirs(prefix: string): () => Promise<string> {
  const made: string[] = [];
  afterEach(async () => {
    await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });
  return async () => {
    const dir = await mkdtemp(join(tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}
