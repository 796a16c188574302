/**
 * List prices of known models, USD per million tokens, standard tier (no batch, no priority,
 * no long-context surcharge: Anthropic bills prompts over 200K tokens on the 1M-context
 * models at a higher rate this table does not model). `cacheWrite` is Anthropic's 5-minute
 * cache write; OpenAI charges nothing to write its cache. Only prices read on the providers'
 * pricing pages are here; a model missing from the table has an unknown cost.
 */

/** Prices of one model in USD per million tokens. */
export interface ModelPrice {
  /** Uncached input (prompt) tokens. */
  input: number;
  output: number;
  /** Input tokens read from the provider's prompt cache. */
  cacheRead?: number;
  /** Input tokens written to the provider's prompt cache. */
  cacheWrite?: number;
}

/** The day the shipped table was last checked against the providers' pricing pages. */
export const PRICES_CHECKED = "2026-12-01";

const openai = (input: number, cacheRead: number, output: number): ModelPrice => ({
  input,
  output,
  cacheRead,
});
const anthropic = (input: number, output: number): ModelPrice => ({
  input,
  output,
  // Anthropic prices cache reads at 0.1x and 5-minute cache writes at 1.25x the input price.
  cacheRead: Math.round(input * 0.1 * 1e4) / 1e4,
  cacheWrite: Math.round(input * 1.25 * 1e4) / 1e4,
});

const OPUS_4 = anthropic(15, 75);
const OPUS_45 = anthropic(5, 25);
const SONNET = anthropic(3, 15);

/**
 * The shipped table, keyed `provider:model`. Dated snapshot ids are listed one by one where
 * they share the family's price: a snapshot priced differently (gpt-4o-2024-05-13) has its
 * own row, and an unlisted date is unknown rather than guessed.
 */
export const KNOWN_PRICES: Readonly<Record<string, ModelPrice>> = {
  "openai:gpt-4o": openai(2.5, 1.25, 10),
  "openai:gpt-4o-2024-08-06": openai(2.5, 1.25, 10),
  "openai:gpt-4o-2024-11-20": openai(2.5, 1.25, 10),
  "openai:gpt-4o-2024-05-13": { input: 5, output: 15 },
  "openai:gpt-4o-mini": openai(0.15, 0.075, 0.6),
  "openai:gpt-4o-mini-2024-07-18": openai(0.15, 0.075, 0.6),
  "openai:gpt-4.1": openai(2, 0.5, 8),
  "openai:gpt-4.1-2025-04-14": openai(2, 0.5, 8),
  "openai:gpt-4.1-mini": openai(0.4, 0.1, 1.6),
  "openai:gpt-4.1-mini-2025-04-14": openai(0.4, 0.1, 1.6),
  "openai:gpt-4.1-nano": openai(0.1, 0.025, 0.4),
  "openai:gpt-4.1-nano-2025-04-14": openai(0.1, 0.025, 0.4),
  "openai:o3": openai(2, 0.5, 8),
  "openai:o3-2025-04-16": openai(2, 0.5, 8),
  "openai:o4-mini": openai(1.1, 0.275, 4.4),
  "openai:o4-mini-2025-04-16": openai(1.1, 0.275, 4.4),
  "openai:gpt-5": openai(1.25, 0.125, 10),
  "openai:gpt-5-2025-08-07": openai(1.25, 0.125, 10),
  "openai:gpt-5-mini": openai(0.25, 0.025, 2),
  "openai:gpt-5-mini-2025-08-07": openai(0.25, 0.025, 2),
  "openai:gpt-5-nano": openai(0.05, 0.005, 0.4),
  "openai:gpt-5-nano-2025-08-07": openai(0.05, 0.005, 0.4),
  "openai:gpt-5.1": openai(1.25, 0.125, 10),
  "anthropic:claude-opus-4-0": OPUS_4,
  "anthropic:claude-opus-4-20250514": OPUS_4,
  "anthropic:claude-opus-4-1": OPUS_4,
  "anthropic:claude-opus-4-1-20250805": OPUS_4,
  "anthropic:claude-opus-4-5": OPUS_45,
  "anthropic:claude-opus-4-5-20251101": OPUS_45,
  "anthropic:claude-opus-4-6": OPUS_45,
  "anthropic:claude-opus-4-7": OPUS_45,
  "anthropic:claude-opus-4-8": OPUS_45,
  "anthropic:claude-opus-5": OPUS_45,
  "anthropic:claude-sonnet-4-0": SONNET,
  "anthropic:claude-sonnet-4-20250514": SONNET,
  "anthropic:claude-sonnet-4-5": SONNET,
  "anthropic:claude-sonnet-4-5-20250929": SONNET,
  "anthropic:claude-sonnet-4-6": SONNET,
  "anthropic:claude-sonnet-5": anthropic(2, 10),
  "anthropic:claude-haiku-4-5": anthropic(1, 5),
  "anthropic:claude-haiku-4-5-20251001": anthropic(1, 5),
  "anthropic:claude-3-7-sonnet-latest": SONNET,
  "anthropic:claude-3-7-sonnet-20250219": SONNET,
  "anthropic:claude-3-5-sonnet-latest": SONNET,
  "anthropic:claude-3-5-sonnet-20241022": SONNET,
  "anthropic:claude-3-5-sonnet-20240620": SONNET,
  "anthropic:claude-3-5-haiku-latest": anthropic(0.8, 4),
  "anthropic:claude-3-5-haiku-20241022": anthropic(0.8, 4),
};
