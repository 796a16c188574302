import { ContextOverflowError } from "@langchain/core/errors";

// What providers say when the input is over the model's window. Lower-cased substrings.
const OVERFLOW_TEXT = [
  "context_length_exceeded", // OpenAI error code
  "maximum context length", // OpenAI, vLLM, Mistral: "This model's maximum context length is ..."
  "context length exceeded",
  "prompt is too long", // Anthropic: "prompt is too long: 210000 tokens > 200000 maximum"
  "exceed context limit", // Anthropic: "input length and `max_tokens` exceed context limit"
  "exceeds the context window",
  "input token count", // Google: "The input token count (N) exceeds the maximum number of tokens allowed"
  "input is too long", // Bedrock: "Input is too long for requested model."
  "too many input tokens",
  "reduce the length of the messages", // OpenAI-compatible servers
  "request too large for model",
  "context window exceeded",
];

const OVERFLOW_CODES = new Set(["context_length_exceeded", "string_above_max_length"]);

/**
 * True when an error from a model call says the input did not fit the model's context
 * window: LangChain's `ContextOverflowError`, OpenAI's `context_length_exceeded` code, or
 * the messages Anthropic, OpenAI, Google, Bedrock and OpenAI-compatible servers use. Looks
 * through wrapped causes (middleware wraps errors once per layer).
 *
 * @example
 * isContextOverflowError(new Error("prompt is too long: 210000 tokens > 200000 maximum")) // true
 */
export function isContextOverflowError(error: unknown): boolean {
  let current: any = error;
  for (let depth = 0; depth < 8 && current; depth++) {
    if (ContextOverflowError.isInstance(current)) return true;
    const codes = [current.code, current.error?.code, current.error?.error?.code];
    if (codes.some((c) => typeof c === "string" && OVERFLOW_CODES.has(c))) return true;
    const texts = [current.message, current.error?.message, current.error?.error?.message];
    for (const text of texts) {
      if (typeof text !== "string") continue;
      const lower = text.toLowerCase();
      if (OVERFLOW_TEXT.some((needle) => lower.includes(needle))) return true;
    }
    current = current.cause;
  }
  return false;
}
