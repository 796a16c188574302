import { describe, expect, it } from "vitest";
import {
  joinLargeStrings,
  skeletonRefs,
  splitLargeStrings,
} from "../../src/checkpoint/large-strings.js";

const roundTrip = (value: unknown, min = 64) => {
  const json = JSON.stringify(value);
  const split = splitLargeStrings(new TextEncoder().encode(json), min);
  if (!split) return { json, back: json, chunks: 0 };
  const texts = new Map(split.chunks.map((c) => [c.hash, c.text]));
  const refs = skeletonRefs("json", split.skeleton)!;
  return { json, back: joinLargeStrings(split.skeleton, refs, texts), chunks: split.chunks.length };
};

describe("long strings cut out of JSON and put back", () => {
  it("gives back the exact JSON, with escapes, quotes, control characters and astral text", () => {
    const tricky = `say "hi" \\ \u0001 \n\t ${"𝄞 é ".repeat(40)} end`;
    const value = {
      a: tricky,
      list: [tricky, { deep: `${"x".repeat(3000)}"` }, 1, null, true],
      [`key ${"k".repeat(100)}`]: "short",
      again: tricky,
    };
    const { json, back, chunks } = roundTrip(value);
    expect(back).toBe(json);
    expect(chunks).toBeGreaterThan(0);
    expect(JSON.parse(back)).toEqual(value);
  });

  it("stores a repeated string once: both places point at one chunk", () => {
    const text = "z".repeat(5000);
    const split = splitLargeStrings(
      JSON.stringify({ file: text, toolCall: { args: { content: text } } }),
    )!;
    expect(new Set(split.chunks.map((c) => c.hash)).size).toBe(1);
    expect(split.skeleton.length).toBeLessThan(200);
  });

  it("leaves small values, non-JSON bytes and values without long strings whole", () => {
    expect(splitLargeStrings(JSON.stringify({ a: "short" }))).toBeUndefined();
    expect(splitLargeStrings(new Uint8Array(5000).fill(7))).toBeUndefined();
    expect(
      splitLargeStrings(JSON.stringify(Array.from({ length: 2000 }, (_, i) => i))),
    ).toBeUndefined();
    expect(skeletonRefs("json", JSON.stringify({ a: 1 }))).toBeUndefined();
  });

  it("a skeleton whose chunk is gone fails loudly instead of returning other text", () => {
    const split = splitLargeStrings(JSON.stringify({ a: "q".repeat(4000) }))!;
    const refs = skeletonRefs("json", split.skeleton)!;
    expect(() => joinLargeStrings(split.skeleton, refs, new Map())).toThrow(/missing/);
  });

  it("names the thread it was cut for, and is a skeleton only when stored as json", () => {
    const split = splitLargeStrings(JSON.stringify({ a: "q".repeat(4000) }), 1024, 'th\n"1"')!;
    expect(skeletonRefs("json", split.skeleton)?.thread).toBe('th\n"1"');
    expect(skeletonRefs("bytes", split.skeleton)).toBeUndefined();
  });
});
