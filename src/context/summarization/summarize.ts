import { randomUUID } from "node:crypto";
import { type BaseMessage, HumanMessage } from "@langchain/core/messages";
import { reportModelUsage } from "../../models/usage-scope.js";
import { textTokens } from "../token-estimate.js";
import { renderTranscript } from "./transcript.js";

/** What the summarizer is asked for. */
export const SUMMARY_PROMPT = `You are compacting the history of a conversation between a user and an AI agent that works with tools, so the agent can carry on with less context. Write a summary the agent can continue from without the original messages, under these headings:
1. User intent: what the user asked for, with constraints and preferences (quote them where wording matters).
2. Artifacts: every file created, changed or deleted (full path) and what it holds; other outputs produced.
3. Decisions and findings: what was decided or learned, and the facts later steps need (ids, names, numbers, errors and their causes).
4. Next steps: what is done, what is in progress, and what remains, in order.
Be specific and complete; leave out pleasantries and tool mechanics that no longer matter. Reply with the summary only.`;

/** `additional_kwargs.lc_source` of a summary message. */
export const SUMMARY_SOURCE = "summarization";

/** True for a message this middleware wrote in place of summarised messages. */
export function isSummaryMessage(message: BaseMessage): boolean {
  return message.additional_kwargs?.lc_source === SUMMARY_SOURCE;
}

/** The summary text inside a summary message. */
export function summaryTextOf(message: BaseMessage): string {
  const match = /<summary>\n?([\s\S]*?)\n?<\/summary>/.exec(message.text);
  return match ? match[1]! : message.text;
}

/** A model that can write a summary. */
export interface Summarizer {
  invoke(input: BaseMessage[], config?: Record<string, unknown>): Promise<{ text: string }>;
}

/**
 * Summarises messages with an LLM. Earlier summary messages among them are merged rather
 * than re-read as conversation. When the transcript does not fit `budget` tokens in one
 * request, it is summarised in chunks, each request carrying the summary so far, so the
 * summarizer is never sent more than its window (long single messages are clipped to their
 * head and tail). Runs with the `nostream` tag: summary tokens do not stream as the agent's
 * own words.
 */
export async function writeSummary(
  model: Summarizer,
  messages: readonly BaseMessage[],
  budget: number,
): Promise<string> {
  const clip = Math.max(200, Math.floor(budget / 4));
  let summary = messages.filter(isSummaryMessage).map(summaryTextOf).join("\n\n");
  const parts = messages
    .filter((m) => !isSummaryMessage(m))
    .map((m) => renderTranscript([m], { clipTokens: clip }));
  let chunk: string[] = [];
  let used = textTokens(summary);
  for (const part of parts) {
    const cost = textTokens(part);
    if (chunk.length > 0 && used + cost > budget) {
      summary = await summarizeChunk(model, summary, chunk);
      chunk = [];
      used = textTokens(summary);
    }
    chunk.push(part);
    used += cost;
  }
  if (chunk.length > 0 || !summary) summary = await summarizeChunk(model, summary, chunk);
  return summary;
}

async function summarizeChunk(model: Summarizer, earlier: string, parts: string[]) {
  const intro = earlier
    ? `${SUMMARY_PROMPT}\n\nAn earlier summary of the same conversation comes first; merge it with the messages that follow into one summary.\n\n<earlier_summary>\n${earlier}\n</earlier_summary>`
    : SUMMARY_PROMPT;
  const request = `${intro}\n\n<messages>\n${parts.join("\n")}\n</messages>`;
  const reply = await model.invoke([new HumanMessage(request)], {
    tags: ["nostream"],
    runName: "summarization",
  });
  // Summaries cost tokens too: a usage-recording middleware around this call counts them.
  reportModelUsage(reply, "summarizer");
  const text = reply.text.trim();
  if (!text) throw new Error("the summarization model returned an empty summary");
  return text;
}

/**
 * The message that stands in for summarised messages: says that earlier messages were
 * summarised, where their full transcript is (or why it could not be saved), and the summary.
 */
export function summaryMessage(
  summary: string,
  transcript: { path: string } | { error: string },
  readHint: string,
): HumanMessage {
  const where =
    "path" in transcript
      ? `Their full transcript is in ${transcript.path}${readHint}.`
      : `Their full transcript could not be saved (${transcript.error}), so this summary is all that remains of them.`;
  return new HumanMessage({
    id: randomUUID(),
    content: `Earlier messages of this conversation were summarized to save context. ${where}\n\n<summary>\n${summary}\n</summary>`,
    additional_kwargs: {
      lc_source: SUMMARY_SOURCE,
      ...("path" in transcript ? { delve_transcript: transcript.path } : {}),
    },
  });
}
