import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { estimateTokens } from "../surface/estimate-tokens.js";
import { splitContent } from "./message-text.js";

// Why estimateTokens and not chars/4: measured against o200k/cl100k (js-tiktoken), chars/4
// undercounts JSON, CSV, `ls`/`ps` listings and CJK text by 1.6-2x (a 39k-token listing reads
// as 21k), so results that fill the context would slip under the limit. estimateTokens is
// within 10% on those and 1.3-1.4x high on prose and code: it evicts and summarises a little
// early, never late. Both undercount base64 (about 0.5x).

/** Tokens counted for one non-text block (image, audio, file): about one 1 MP image. */
export const NON_TEXT_BLOCK_TOKENS = 1_600;
/** Fixed cost of one message (role, separators). */
export const MESSAGE_OVERHEAD_TOKENS = 4;

const CHUNK = 16_384;

/**
 * True when `text` is estimated at more than `limit` tokens. Reads the text in chunks and
 * stops as soon as the limit is passed, so a 10 MB tool result costs the same as 100 KB.
 *
 * @example
 * exceedsTokens("x".repeat(100_000), 20_000) // true
 */
export function exceedsTokens(text: string, limit: number): boolean {
  if (text.length <= limit) return false; // No piece is worth more than one token per character.
  let total = 0;
  for (let at = 0; at < text.length; at += CHUNK) {
    total += estimateTokens(text.slice(at, at + CHUNK));
    if (total > limit) return true;
  }
  return false;
}

/** The offline token estimate of a whole text (see `estimateTokens`). */
export function textTokens(text: string): number {
  let total = 0;
  for (let at = 0; at < text.length; at += CHUNK)
    total += estimateTokens(text.slice(at, at + CHUNK));
  return total;
}

/**
 * The longest prefix of `text` estimated within `budget` tokens (to within a few characters),
 * ending at a line break when that keeps at least three quarters of it. Used to cut a text
 * to a safe size.
 */
export function prefixWithin(text: string, budget: number): string {
  const end = fitLength(text.length, budget, (from, to) => text.slice(from, to));
  if (end === text.length) return text;
  const newline = text.lastIndexOf("\n", end);
  return text.slice(0, newline >= end * 0.75 && newline > 0 ? newline : end);
}

/** The longest suffix of `text` within `budget` tokens, starting after a line break when that keeps three quarters of it. */
export function suffixWithin(text: string, budget: number): string {
  const n = text.length;
  const length = fitLength(n, budget, (from, to) => text.slice(n - to, n - from));
  if (length === n) return text;
  const start = n - length;
  const newline = text.indexOf("\n", start);
  return text.slice(newline !== -1 && n - newline - 1 >= length * 0.75 ? newline + 1 : start);
}

// How many characters (taken in the order `slice` walks) fit the budget: big steps while
// they fit, halved down to 16 characters when one does not.
function fitLength(
  total: number,
  budget: number,
  slice: (from: number, to: number) => string,
): number {
  let used = 0;
  let length = 0;
  let step = 1_024;
  while (length < total) {
    const next = Math.min(total, length + step);
    const cost = estimateTokens(slice(length, next));
    if (used + cost > budget) {
      if (step <= 16) break;
      step = Math.floor(step / 2);
      continue;
    }
    used += cost;
    length = next;
  }
  return length;
}

/**
 * `text` split into a head and a tail of about `budget / 2` tokens each, and how many
 * characters lie between them; `cut` is 0 (and `tail` empty) when the whole text fits.
 *
 * @example
 * const { head, tail, cut } = headAndTail(bigText, 20_000);
 */
export function headAndTail(
  text: string,
  budget: number,
): { head: string; tail: string; cut: number } {
  if (!exceedsTokens(text, budget)) return { head: text, tail: "", cut: 0 };
  const half = Math.max(1, Math.floor(budget / 2));
  const head = prefixWithin(text, half);
  const tail = suffixWithin(text.slice(head.length), half);
  return { head, tail, cut: text.length - head.length - tail.length };
}

const messageCache = new WeakMap<BaseMessage, number>();

/**
 * The estimated tokens of one message as a provider receives it: its text, each non-text block
 * at a flat rate, its tool calls (name + JSON arguments) and a small fixed overhead. Cached per
 * message object: messages in state are immutable, so each is measured once.
 */
export function messageTokens(message: BaseMessage): number {
  const cached = messageCache.get(message);
  if (cached !== undefined) return cached;
  const { text, other } = splitContent(message.content);
  let tokens = MESSAGE_OVERHEAD_TOKENS + textTokens(text);
  for (const block of other) {
    const type = (block as { type?: string } | null)?.type;
    // Tool-use blocks repeat the tool calls counted below.
    if (type !== "tool_use" && type !== "tool_call") tokens += NON_TEXT_BLOCK_TOKENS;
  }
  if (AIMessage.isInstance(message)) {
    for (const call of message.tool_calls ?? []) {
      tokens += textTokens(`${call.name}${JSON.stringify(call.args ?? {})}`) + 3;
    }
  }
  messageCache.set(message, tokens);
  return tokens;
}

const toolCache = new WeakMap<object, number>();

/** The estimated tokens of one tool definition (name, description, JSON schema). */
export function toolTokens(tool: unknown): number {
  if (typeof tool !== "object" || tool === null) return 0;
  const cached = toolCache.get(tool);
  if (cached !== undefined) return cached;
  let text: string;
  if (typeof (tool as { invoke?: unknown }).invoke === "function") {
    try {
      text = JSON.stringify(convertToOpenAITool(tool as any));
    } catch {
      text = `${(tool as any).name ?? ""}${(tool as any).description ?? ""}`;
    }
  } else {
    text = JSON.stringify(tool); // A provider tool dictionary.
  }
  const tokens = textTokens(text);
  toolCache.set(tool, tokens);
  return tokens;
}

/** What a model request holds, as far as its size goes. */
export interface RequestSize {
  systemPrompt?: string;
  messages: readonly BaseMessage[];
  tools?: readonly unknown[];
}

/**
 * The estimated input tokens of one model request: system prompt + messages + tools.
 *
 * @example
 * requestTokens({ systemPrompt: request.systemPrompt, messages: request.messages, tools: request.tools })
 */
export function requestTokens(request: RequestSize): number {
  let total = request.systemPrompt ? textTokens(request.systemPrompt) + MESSAGE_OVERHEAD_TOKENS : 0;
  for (const message of request.messages) total += messageTokens(message);
  for (const tool of request.tools ?? []) total += toolTokens(tool);
  return total;
}
