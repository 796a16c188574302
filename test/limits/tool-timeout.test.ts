import { tool } from "@langchain/core/tools";
import { createDeepAgent, ScriptedChatModel } from "delve";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const user = (content: string) => ({ messages: [{ role: "user" as const, content }] });

// A tool that never returns on its own; it records the signal it was given.
function hangingTool(seen: { signal?: AbortSignal }, metadata?: Record<string, unknown>) {
  return tool(
    async (_input, config) => {
      seen.signal = config?.signal;
      return new Promise<string>(() => {});
    },
    { name: "fetch_report", description: "Fetches a report.", schema: z.object({}), metadata },
  );
}

describe("tool timeouts", () => {
  it("a tool past its own timeoutMs is cancelled and the model gets an error result", async () => {
    const seen: { signal?: AbortSignal } = {};
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "fetch_report", args: {} }] },
      (messages) => `saw: ${messages.at(-1)?.content}`,
    ]);
    const agent = createDeepAgent({ model, tools: [hangingTool(seen, { timeoutMs: 150 })] });
    const started = Date.now();
    const out = await agent.invoke(user("go"));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(String(out.messages.at(-1)?.content)).toBe(
      "saw: Error: fetch_report did not finish within 150 ms and was cancelled. Retry with a smaller request, or do it another way.",
    );
    // Cancelled, not abandoned: the signal the tool holds is aborted.
    expect(seen.signal?.aborted).toBe(true);
  });

  it("limits.toolTimeoutMs applies to every tool without its own", async () => {
    const seen: { signal?: AbortSignal } = {};
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "fetch_report", args: {} }] },
      (messages) => String(messages.at(-1)?.content),
    ]);
    const agent = createDeepAgent({
      model,
      tools: [hangingTool(seen)],
      limits: { toolTimeoutMs: 100 },
    });
    const out = await agent.invoke(user("go"));
    expect(String(out.messages.at(-1)?.content)).toContain("did not finish within 100 ms");
    expect(seen.signal?.aborted).toBe(true);
  });

  it("a tool that finishes in time is untouched", async () => {
    const quick = tool(async () => "42", {
      name: "quick",
      description: "Quick.",
      schema: z.object({}),
    });
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "quick", args: {} }] },
      (messages) => String(messages.at(-1)?.content),
    ]);
    const out = await createDeepAgent({
      model,
      tools: [quick],
      limits: { toolTimeoutMs: 5_000 },
    }).invoke(user("go"));
    expect(String(out.messages.at(-1)?.content)).toBe("42");
  });
});
