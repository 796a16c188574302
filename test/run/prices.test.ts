import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../../src/errors/index.js";
import {
  costUsd,
  KNOWN_PRICES,
  loadPriceFile,
  PRICES_CHECKED,
  resolvePrice,
} from "../../src/run/prices.js";

describe("resolvePrice", () => {
  it("finds list prices of known models, dated snapshots included", () => {
    expect(resolvePrice("openai:gpt-4o")).toEqual({ input: 2.5, output: 10, cacheRead: 1.25 });
    expect(resolvePrice("openai:gpt-4o-2024-08-06")).toEqual(resolvePrice("openai:gpt-4o"));
    expect(resolvePrice("anthropic:claude-sonnet-4-5-20250929")).toEqual({
      input: 3,
      output: 15,
      cacheRead: 0.3,
      cacheWrite: 3.75,
    });
    expect(resolvePrice("OpenAI:gpt-4.1")?.input).toBe(2);
  });

  it("prices a snapshot that differs from its family by its own row", () => {
    expect(resolvePrice("openai:gpt-4o-2024-05-13")).toEqual({ input: 5, output: 15 });
  });

  it("says unknown for a model or a snapshot date it does not list", () => {
    expect(resolvePrice("openai:gpt-4o-2031-01-01")).toBeUndefined();
    expect(resolvePrice("ollama:llama3")).toBeUndefined();
    expect(resolvePrice("gpt-4o")).toBeUndefined();
    expect(resolvePrice("openai:toString")).toBeUndefined();
    expect(resolvePrice("openai:__proto__")).toBeUndefined();
  });

  it("lets overrides beat the table and add models", () => {
    const overrides = {
      "openai:gpt-4o": { input: 1, output: 2 },
      "ollama:llama3": { input: 0, output: 0 },
    };
    expect(resolvePrice("openai:gpt-4o", overrides)).toEqual({ input: 1, output: 2 });
    expect(resolvePrice("ollama:llama3", overrides)).toEqual({ input: 0, output: 0 });
    expect(resolvePrice("openai:gpt-4.1", overrides)?.input).toBe(2);
  });

  it("ships a dated table whose prices are all positive numbers", () => {
    expect(PRICES_CHECKED).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const [key, price] of Object.entries(KNOWN_PRICES)) {
      expect(key).toMatch(/^(openai|anthropic):[a-z0-9.-]+$/);
      expect(price.input, key).toBeGreaterThan(0);
      expect(price.output, key).toBeGreaterThan(price.input);
    }
  });
});

describe("costUsd", () => {
  it("bills uncached input, cached input and output at their own prices", () => {
    const price = resolvePrice("anthropic:claude-sonnet-4-5")!;
    // 1M prompt tokens, of which 400k cache reads and 100k cache writes; 10k output.
    const cost = costUsd(
      { input: 1_000_000, output: 10_000, cacheRead: 400_000, cacheWrite: 100_000 },
      price,
    );
    expect(cost).toBeCloseTo(0.5 * 3 + 0.4 * 0.3 + 0.1 * 3.75 + 0.01 * 15, 10);
  });

  it("is undefined for an unknown price, never zero", () => {
    expect(costUsd({ input: 10, output: 10 }, undefined)).toBeUndefined();
  });

  it("is undefined when cache tokens have no price", () => {
    expect(
      costUsd({ input: 100, output: 1, cacheRead: 50 }, { input: 1, output: 2 }),
    ).toBeUndefined();
    expect(costUsd({ input: 100, output: 1, cacheRead: 0 }, { input: 1, output: 2 })).toBeCloseTo(
      102e-6,
    );
  });
});

describe("loadPriceFile", () => {
  const write = (text: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "delve-prices-"));
    const file = path.join(dir, "prices.json");
    fs.writeFileSync(file, text);
    return file;
  };

  it("reads a price file", () => {
    const file = write(
      JSON.stringify({ "ollama:qwen3": { input: 0.1, output: 0.2, cacheRead: 0.01 } }),
    );
    expect(loadPriceFile(file)).toEqual({
      "ollama:qwen3": { input: 0.1, output: 0.2, cacheRead: 0.01 },
    });
  });

  it.each([
    ['{"openai:gpt-4o": {"input": -1, "output": 2}}', /openai:gpt-4o\.input/],
    ['{"openai:gpt-4o": {"input": 1, "output": "2"}}', /openai:gpt-4o\.output/],
    ['{"openai:gpt-4o": {"input": 1, "output": 2, "cached": 1}}', /unknown key "cached"/],
    ['{"gpt-4o": {"input": 1, "output": 2}}', /provider:model/],
    ["[1]", /Bad price/],
    ["{oops", /is not JSON/],
  ])("names the file and the key for %s", (text, why) => {
    const file = write(text);
    let error: unknown;
    try {
      loadPriceFile(file);
    } catch (e) {
      error = e;
    }
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect((error as ConfigurationError).code).toBe("INVALID_PRICES");
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toMatch(why);
  });

  it("names a missing file", () => {
    expect(() => loadPriceFile("/nonexistent/prices.json")).toThrow(
      /Cannot read the price file \/nonexistent/,
    );
  });
});
