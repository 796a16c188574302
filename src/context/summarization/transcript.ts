import { AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";
import { describeBlock, roleOf, splitContent } from "../message-text.js";
import { headAndTail } from "../token-estimate.js";

/** Options of `renderTranscript`. */
export interface TranscriptOptions {
  /**
   * Clip each message's text and each tool call's arguments to about this many tokens (head
   * and tail kept, the middle marked as omitted). Unset: everything in full.
   */
  clipTokens?: number;
}

/**
 * Renders messages as a readable Markdown transcript: a heading per message ("### user",
 * "### assistant", "### tool result: grep (call_1)"), its text, and each tool call with its
 * JSON arguments. Non-text blocks appear as short placeholders ("[image image/png, 48 KB]").
 * The same rendering is saved as the conversation history file and sent to the summarizer.
 *
 * @example
 * renderTranscript([new HumanMessage("Fix the login bug")]) // "### user\nFix the login bug\n"
 */
export function renderTranscript(
  messages: readonly BaseMessage[],
  options: TranscriptOptions = {},
): string {
  return messages.map((m) => renderMessage(m, options.clipTokens)).join("\n");
}

function renderMessage(message: BaseMessage, clip: number | undefined): string {
  const { text, other } = splitContent(message.content);
  let heading = roleOf(message);
  if (ToolMessage.isInstance(message)) {
    const status = message.status === "error" ? ", error" : "";
    heading += `: ${message.name ?? "tool"} (${message.tool_call_id}${status})`;
  }
  const lines = [`### ${heading}`];
  if (text) lines.push(clipText(text, clip));
  for (const block of other) {
    const placeholder = describeBlock(block);
    if (placeholder) lines.push(placeholder);
  }
  if (AIMessage.isInstance(message)) {
    for (const call of message.tool_calls ?? []) {
      const args = clipText(JSON.stringify(call.args ?? {}), clip);
      lines.push(`- tool call ${call.name} (${call.id ?? "no id"}): ${args}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

/** `text` cut to about `budget` tokens: its head and tail, with the cut marked. */
export function clipText(text: string, budget: number | undefined): string {
  if (budget === undefined) return text;
  const { head, tail, cut } = headAndTail(text, budget);
  return cut === 0 ? text : `${head}\n[... ${cut} characters omitted ...]\n${tail}`;
}
