import type { BaseMessage } from "@langchain/core/messages";

/** A message's content split into its text and everything else (images, files, tool use). */
export interface SplitContent {
  /** The text blocks joined by newlines ("" when there are none). */
  text: string;
  /** How many text blocks (a plain string counts as one). */
  textBlocks: number;
  /** The non-text blocks, in order. */
  other: unknown[];
}

/**
 * Splits message content (a string or a list of blocks) into text and non-text blocks.
 * Eviction measures and saves the text; the other blocks stay in the message untouched.
 *
 * @example
 * splitContent([{ type: "text", text: "a" }, { type: "image", url: "..." }]).text // "a"
 */
export function splitContent(content: unknown): SplitContent {
  if (typeof content === "string") return { text: content, textBlocks: 1, other: [] };
  if (!Array.isArray(content)) return { text: "", textBlocks: 0, other: [] };
  const texts: string[] = [];
  const other: unknown[] = [];
  for (const block of content) {
    if (typeof block === "string") texts.push(block);
    else if (isTextBlock(block)) texts.push(block.text);
    else other.push(block);
  }
  return { text: texts.join("\n"), textBlocks: texts.length, other };
}

function isTextBlock(block: unknown): block is { type: "text"; text: string } {
  const b = block as { type?: unknown; text?: unknown } | null;
  return b !== null && typeof b === "object" && b.type === "text" && typeof b.text === "string";
}

/** A short description of a non-text block for transcripts: "[image/png, 48 KB]". */
export function describeBlock(block: unknown): string {
  const b = (block ?? {}) as Record<string, unknown>;
  const type = typeof b.type === "string" ? b.type : "block";
  if (type === "tool_use" || type === "tool_call") return ""; // Rendered from tool_calls instead.
  const mime = b.mimeType ?? b.mime_type ?? (b.source as any)?.media_type;
  const data = b.data ?? (b.source as any)?.data;
  const size = typeof data === "string" ? ` ${Math.ceil((data.length * 3) / 4 / 1024)} KB` : "";
  return `[${type}${typeof mime === "string" ? ` ${mime}` : ""}${size ? `,${size}` : ""}]`;
}

/** The role a transcript shows for a message. */
export function roleOf(message: BaseMessage): string {
  const type = message.getType();
  switch (type) {
    case "human":
      return "user";
    case "ai":
      return "assistant";
    case "tool":
      return "tool result";
    default:
      return type;
  }
}
