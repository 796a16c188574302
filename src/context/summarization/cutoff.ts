import { type BaseMessage, ToolMessage } from "@langchain/core/messages";
import { ConfigurationError } from "../../errors/configuration-error.js";
import { messageTokens } from "../token-estimate.js";

/**
 * How much recent conversation summarization keeps verbatim: a fraction of the model's
 * input window, a number of tokens, or a number of messages.
 */
export type KeepPolicy = { fraction: number } | { tokens: number } | { messages: number };

/** Keeps the most recent 10% of the input window. */
export const DEFAULT_KEEP: KeepPolicy = { fraction: 0.1 };

/** Checks a keep policy at construction. */
export function validateKeep(keep: unknown): KeepPolicy {
  if (keep === undefined) return DEFAULT_KEEP;
  const k = keep as Record<string, unknown>;
  const ok =
    k !== null &&
    typeof k === "object" &&
    Object.keys(k).length === 1 &&
    ((typeof k.fraction === "number" && k.fraction > 0 && k.fraction < 1) ||
      (typeof k.tokens === "number" && k.tokens > 0) ||
      (typeof k.messages === "number" && Number.isInteger(k.messages) && k.messages > 0));
  if (!ok) {
    throw new ConfigurationError(
      "INVALID_OPTION",
      `summarization keep must be { fraction } (between 0 and 1), { tokens } or { messages } (got ${JSON.stringify(keep)}).`,
    );
  }
  return keep as KeepPolicy;
}

/**
 * Where to cut a conversation: messages before the returned index are summarised, the rest
 * kept. The kept tail holds as many recent messages as the policy allows (at least the last
 * one) and never starts with a tool result: the cut moves back to the AI message that made
 * the call, so a tool call and its results are never split.
 *
 * @example
 * const cut = findCutoff(messages, { messages: 6 }, 200_000);
 */
export function findCutoff(
  messages: readonly BaseMessage[],
  keep: KeepPolicy,
  window: number,
): number {
  let cut = messages.length;
  if ("messages" in keep) {
    cut = Math.max(0, messages.length - keep.messages);
  } else {
    const budget = "tokens" in keep ? keep.tokens : keep.fraction * window;
    let used = 0;
    while (cut > 0) {
      const cost = messageTokens(messages[cut - 1]!);
      if (used + cost > budget && cut < messages.length) break;
      used += cost;
      cut--;
    }
  }
  while (cut > 0 && cut < messages.length && ToolMessage.isInstance(messages[cut]!)) cut--;
  return cut;
}
