/**
 * Timing helpers for side-by-side benchmarks on a shared, noisy machine: the contenders run
 * interleaved (round-robin, with the starting contender rotating each round so none always
 * runs first after a GC or a neighbour's burst), each sample is one timed call, and results
 * are compared by median, which one slow outlier cannot move.
 *
 * @example
 * const samples = await interleaved(
 *   { delve: () => delveGrep(), deepagents: () => theirGrep() },
 *   { runs: 15, warmup: 3 },
 * );
 * console.log(median(samples.delve) / median(samples.deepagents));
 */

/**
 * One contender: a function run once per sample. When it returns (or resolves to) a number,
 * that is its own measurement in ms (e.g. a time a child process reported); otherwise its
 * wall time is taken.
 */
export type Contender = () => unknown;

export interface InterleaveOptions {
  /** Timed samples per contender. */
  runs: number;
  /** Untimed rounds first, so JIT warm-up and lazy imports do not land in the samples. */
  warmup?: number;
  /** Calls per sample; the sample is the mean per call (for operations of a few µs). */
  repeat?: number;
}

/**
 * Runs every contender `warmup + runs` times in rotating round-robin order and returns the
 * timed samples (ms) per contender name.
 *
 * @example
 * const s = await interleaved({ a: fa, b: fb }, { runs: 9, warmup: 2, repeat: 10 });
 */
export async function interleaved(
  contenders: Record<string, Contender>,
  options: InterleaveOptions,
): Promise<Record<string, number[]>> {
  const names = Object.keys(contenders);
  const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const repeat = Math.max(1, options.repeat ?? 1);
  const warmup = options.warmup ?? 0;
  for (let round = 0; round < warmup + options.runs; round++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(round + k) % names.length]!;
      const ms = await timeOnce(contenders[name]!, repeat);
      if (round >= warmup) samples[name]!.push(ms);
    }
  }
  return samples;
}

async function timeOnce(run: Contender, repeat: number): Promise<number> {
  let reported = 0;
  let allReported = true;
  const start = performance.now();
  for (let i = 0; i < repeat; i++) {
    const value = await run();
    if (typeof value === "number") reported += value;
    else allReported = false;
  }
  const wall = performance.now() - start;
  return (allReported ? reported : wall) / repeat;
}

/**
 * The median of `values` (the mean of the two middle values for an even count).
 *
 * @example
 * median([3, 1, 2]); // 2
 */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * The spread of samples as "min..max", to show how noisy a median was.
 *
 * @example
 * spread([1.2, 0.9, 3.4]); // "0.90..3.40"
 */
export function spread(values: readonly number[], digits = 2): string {
  if (values.length === 0) return "-";
  return `${Math.min(...values).toFixed(digits)}..${Math.max(...values).toFixed(digits)}`;
}
