import { createHash, randomUUID } from "node:crypto";
import type { BaseMessage } from "@langchain/core/messages";
import type { BackendProtocol } from "../../backends/protocol/protocol.js";
import { safeFileName } from "../safe-name.js";
import { isSummaryMessage } from "./summarize.js";
import { renderTranscript } from "./transcript.js";

/** Default folder of conversation transcripts. */
export const TRANSCRIPT_DIR = "/conversation_history";

/** What locates a run: the LangGraph config of the model call. */
export interface RunLocation {
  configurable?: Record<string, unknown>;
}

/**
 * The transcript file of the conversation making this call, read from the run config, so
 * threads never share a file: `<dir>/<thread_id>.md` for the agent itself, and
 * `<dir>/<thread_id>--<agent>-<8 hex>.md` inside a subagent (the hex names the subagent's
 * checkpoint namespace, so parallel subagents of one thread write separate files). Without a
 * thread id, the path recorded in an earlier summary message is reused, else a new one made.
 *
 * @example
 * transcriptPath("/conversation_history", { configurable: { thread_id: "t-42" } }, [], "agent")
 * // "/conversation_history/t-42.md"
 */
export function transcriptPath(
  dir: string,
  config: RunLocation | undefined,
  messages: readonly BaseMessage[],
  agentName: string | undefined,
): string {
  const thread = config?.configurable?.thread_id;
  let base: string;
  if (typeof thread === "string" || typeof thread === "number") {
    base = safeFileName(String(thread));
  } else {
    const earlier = messages.find(isSummaryMessage)?.additional_kwargs?.delve_transcript;
    if (typeof earlier === "string") return earlier;
    base = `session-${randomUUID().slice(0, 8)}`;
  }
  const ns = String(config?.configurable?.checkpoint_ns ?? "");
  const parent = ns.includes("|") ? ns.slice(0, ns.lastIndexOf("|")) : "";
  if (!parent) return `${dir}/${base}.md`;
  const hash = createHash("sha256").update(parent).digest("hex").slice(0, 8);
  return `${dir}/${base}--${safeFileName(agentName ?? "subagent")}-${hash}.md`;
}

/**
 * Appends summarised messages to the transcript file as a dated section (summary messages
 * themselves are left out: their originals are already in the file). Returns true, or why
 * the file could not be written.
 */
export async function appendTranscript(
  backend: BackendProtocol,
  path: string,
  messages: readonly BaseMessage[],
): Promise<true | string> {
  const original = messages.filter((m) => !isSummaryMessage(m));
  const section = `## Summarized at ${new Date().toISOString()} (${original.length} messages)\n\n${renderTranscript(original)}\n`;
  try {
    const [existing] = await backend.downloadFiles([path]);
    if (existing?.error && existing.error.code !== "not_found") return existing.error.message;
    const before = existing?.content ? Buffer.from(existing.content).toString("utf-8") : "";
    const head = before ? before : `# Conversation history\n\n`;
    const written = await backend.write(path, `${head}${section}`);
    return written.error ? written.error.message : true;
  } catch (error) {
    return (error as Error)?.message ?? String(error);
  }
}
