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
 * Saves summarised messages as the next part of the transcript (summary messages themselves
 * are left out: their originals are already saved). The first part is `path` itself, later
 * ones `<path without .md>.part-<n>.md`, each naming the part before it: a part is written
 * once, so the file a checkpoint stores never grows with the number of compactions. Returns
 * the path written, or why it could not be written.
 */
export async function appendTranscript(
  backend: BackendProtocol,
  path: string,
  messages: readonly BaseMessage[],
): Promise<{ path: string } | { error: string }> {
  const original = messages.filter((m) => !isSummaryMessage(m));
  const section = `## Summarized at ${new Date().toISOString()} (${original.length} messages)\n\n${renderTranscript(original)}\n`;
  try {
    const { part, previous } = await nextPart(backend, path);
    const head =
      part === 1
        ? "# Conversation history\n\n"
        : `# Conversation history, part ${part}\n\nEarlier messages: ${previous}\n\n`;
    const target = partPath(path, part);
    const written = await backend.write(target, `${head}${section}`);
    return written.error ? { error: written.error.message } : { path: target };
  } catch (error) {
    return { error: (error as Error)?.message ?? String(error) };
  }
}

/** The path of part `n` of the transcript at `path` (part 1 is `path`). */
export function partPath(path: string, n: number): string {
  if (n === 1) return path;
  const stem = path.endsWith(".md") ? path.slice(0, -3) : path;
  return `${stem}.part-${n}.md`;
}

// The first part not written yet, found by listing the folder (no file is read).
async function nextPart(
  backend: BackendProtocol,
  path: string,
): Promise<{ part: number; previous?: string }> {
  const dir = path.slice(0, path.lastIndexOf("/")) || "/";
  const listed = await backend.ls(dir);
  if (listed.error && listed.error.code !== "not_found") throw new Error(listed.error.message);
  const names = new Set((listed.files ?? []).map((f) => f.path.replace(/\/$/, "")));
  const has = (p: string) => names.has(p) || names.has(p.slice(p.lastIndexOf("/") + 1));
  let part = 1;
  while (has(partPath(path, part))) part += 1;
  return { part, previous: part > 1 ? partPath(path, part - 1) : undefined };
}
