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

describe("a timed-out execute", () => {
  it("kills the command and the processes it started: none is alive afterwards", async () => {
    const { mkdtempSync, readFileSync, existsSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const { LocalShellBackend } = await import("delve");
    const dir = mkdtempSync(join(tmpdir(), "delve-timeout-"));
    const backend = new LocalShellBackend({ rootDir: dir, timeout: 60 });
    const command = "echo $$ > pids; sleep 30 & echo $! >> pids; sleep 30";
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "execute", args: { command } }] },
      (messages) => String(messages.at(-1)?.content),
    ]);
    const agent = createDeepAgent({ model, backend, limits: { toolTimeoutMs: 400 } });
    const started = Date.now();
    const out = await agent.invoke(user("go"));
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(String(out.messages.at(-1)?.content)).toContain("execute did not finish within 400 ms");
    const pids = readFileSync(join(dir, "pids"), "utf8").trim().split("\n").map(Number);
    expect(pids).toHaveLength(2);
    // The kill is asynchronous to the tool result: give it the reaper's moment.
    const deadline = Date.now() + 3_000;
    const alive = () => pids.filter((pid) => existsSync(`/proc/${pid}`) && !isZombie(pid));
    while (alive().length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(alive()).toEqual([]);

    function isZombie(pid: number): boolean {
      try {
        return /^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));
      } catch {
        return true;
      }
    }
  });
});
