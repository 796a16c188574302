import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ROOT } from "../cli/delve-bin.js";
import { type Harness, startHarness } from "../cli/run-harness.js";

// `delve run` against the fake provider: a model call that still fails after its retries
// ends the run with status failed and the named error; `-c` resumes the thread.

vi.setConfig({ testTimeout: 120_000 });

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe("delve run after the last retry", () => {
  it("status failed with provider, status and request id; -c resumes and completes", async () => {
    const ws = h.workspace();
    h.openai.script([
      { fault: "503", requestId: "req_one" },
      { fault: "503", requestId: "req_two" },
      { text: "resumed fine" },
    ]);
    const agent = ["--agent", path.join(ROOT, "test/cli/fixtures/fast-retry-agent.ts")];
    const run = await h.delve(ws, [
      "run",
      "look",
      "--model",
      "openai:gpt-4o-mini",
      ...agent,
      "--output",
      "json",
    ]);
    const result = JSON.parse(run.stdout);
    expect(result.status).toBe("failed");
    expect(result.error).toContain(
      "The openai model call failed after 2 attempts (status 503, request id req_two)",
    );
    expect(run.code).not.toBe(0);
    const resumed = await h.delve(ws, ["run", "-c", ...agent, "--output", "json"]);
    expect(JSON.parse(resumed.stdout)).toMatchObject({
      thread_id: result.thread_id,
      status: "completed",
      answer: "resumed fine",
    });
  });
});
