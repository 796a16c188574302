import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ROOT } from "../cli/delve-bin.js";
import { type Harness, startHarness } from "../cli/run-harness.js";

vi.setConfig({ testTimeout: 120_000 });

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe("delve run reads the agent's limit marker", () => {
  it("a limits budget ends delve run with status limit, limit agent and the reason", async () => {
    const ws = h.workspace();
    h.openai.script([{ toolCalls: [{ name: "ls", args: { path: "/" } }] }, { text: "never" }]);
    const run = await h.delve(ws, [
      "run",
      "look",
      "--model",
      "openai:delve-unpriced-model",
      "--agent",
      path.join(ROOT, "test/cli/fixtures/limited-agent.ts"),
      "--output",
      "json",
    ]);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ status: "limit", limit: "agent" });
    expect(result.error).toContain("modelCalls budget (1 model calls) is used up");
    expect(run.code).toBe(124);
  });
});
