// TEMPORARY STUB: the real module comes from branch h-run-rules (same interface).

/** USD per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}
/** The price of a "provider:model" (stub: overrides only). */
export function resolvePrice(
  model: string,
  overrides?: Record<string, ModelPrice>,
): ModelPrice | undefined {
  return overrides?.[model];
}
/** Cost in USD, or undefined when the price is unknown. */
export function costUsd(
  usage: { input: number; output: number; cacheRead?: number; cacheWrite?: number },
  price: ModelPrice | undefined,
): number | undefined {
  if (!price) return undefined;
  return (usage.input * price.input + usage.output * price.output) / 1_000_000;
}
