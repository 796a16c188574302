import fs from "node:fs";
import { z } from "zod";
import { ConfigurationError } from "../errors/configuration-error.js";
import { KNOWN_PRICES, type ModelPrice } from "./price-table.js";

/**
 * What a run costs: prices by `provider:model` from the shipped table, overridden by a price
 * file or the config. A model without a price has an unknown cost (`undefined`), never a
 * guessed one.
 */

export { KNOWN_PRICES, type ModelPrice, PRICES_CHECKED } from "./price-table.js";

/**
 * Token counts of one model call, in Delve's convention (LangChain's `usage_metadata`):
 * `input` counts every prompt token, cached ones included, and `cacheRead` / `cacheWrite` say
 * how many of them were read from or written to the prompt cache. OpenAI's `prompt_tokens`
 * already includes its cached tokens; Anthropic's raw `input_tokens` excludes them, and
 * `@langchain/anthropic` adds them back, so both arrive here the same way.
 */
export interface TokenCounts {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/**
 * The price of `model` ("provider:model"): `overrides` first, then the shipped table. The
 * provider is matched case-insensitively; the model id exactly, so a dated snapshot the table
 * does not list is unknown rather than priced like its family.
 */
export function resolvePrice(
  model: string,
  overrides?: Record<string, ModelPrice>,
): ModelPrice | undefined {
  const colon = model.indexOf(":");
  const key = colon > 0 ? `${model.slice(0, colon).toLowerCase()}${model.slice(colon)}` : model;
  for (const table of [overrides, KNOWN_PRICES]) {
    if (!table) continue;
    const price = Object.hasOwn(table, model)
      ? table[model]
      : Object.hasOwn(table, key)
        ? table[key]
        : undefined;
    if (price) return price;
  }
  return undefined;
}

/**
 * The cost in USD of `usage` at `price`, or `undefined` when it is unknown: no price, or
 * cache tokens of a kind the price does not cover. `usage.input` includes the cached tokens
 * (see `TokenCounts`); the uncached rest is billed at `price.input`.
 */
export function costUsd(
  usage: { input: number; output: number; cacheRead?: number; cacheWrite?: number },
  price: ModelPrice | undefined,
): number | undefined {
  if (!price) return undefined;
  const cacheRead = usage.cacheRead ?? 0;
  const cacheWrite = usage.cacheWrite ?? 0;
  if (cacheRead > 0 && price.cacheRead === undefined) return undefined;
  if (cacheWrite > 0 && price.cacheWrite === undefined) return undefined;
  const uncached = Math.max(0, usage.input - cacheRead - cacheWrite);
  const micro =
    uncached * price.input +
    usage.output * price.output +
    cacheRead * (price.cacheRead ?? 0) +
    cacheWrite * (price.cacheWrite ?? 0);
  return micro / 1_000_000;
}

const usd = z.number().finite().nonnegative();

/** One price in a price file or the config: USD per million tokens. */
export const modelPriceSchema = z.strictObject({
  input: usd,
  output: usd,
  cacheRead: usd.optional(),
  cacheWrite: usd.optional(),
});

/** A price file (`--prices FILE`, or `"prices"` in the config): `"provider:model"` to prices. */
export const priceFileSchema = z.record(
  z.string().regex(/^[^:\s]+:\S+$/, 'a key must be "provider:model", e.g. "openai:gpt-4.1"'),
  modelPriceSchema,
);

/** The first problem of a failed parse as "key.field: message", for error texts. */
export function describeIssue(error: z.ZodError): { path: string; message: string } {
  const issue = error.issues[0];
  if (!issue) return { path: "", message: error.message };
  const path = issue.path.map(String).join(".");
  if (issue.code === "unrecognized_keys")
    return { path, message: `unknown key ${issue.keys.map((k) => `"${k}"`).join(", ")}` };
  return { path, message: issue.message };
}

/** Checks a price table parsed from `source`; throws INVALID_PRICES naming the file and key. */
export function parsePrices(value: unknown, source: string): Record<string, ModelPrice> {
  const parsed = priceFileSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const { path, message } = describeIssue(parsed.error);
  throw new ConfigurationError(
    "INVALID_PRICES",
    `Bad price${path ? ` at "${path}"` : ""} in ${source}: ${message}. Write {"provider:model": {"input": USD, "output": USD, "cacheRead"?: USD, "cacheWrite"?: USD}}, USD per million tokens.`,
    { source, key: path },
  );
}

/** Reads and checks a price file; errors name the file and the key at fault. */
export function loadPriceFile(path: string): Record<string, ModelPrice> {
  let text: string;
  try {
    text = fs.readFileSync(path, "utf8");
  } catch (error) {
    throw new ConfigurationError(
      "INVALID_PRICES",
      `Cannot read the price file ${path}: ${(error as Error).message}. Check the --prices path.`,
      { source: path },
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigurationError(
      "INVALID_PRICES",
      `The price file ${path} is not JSON: ${(error as Error).message}.`,
      { source: path },
    );
  }
  return parsePrices(value, path);
}
