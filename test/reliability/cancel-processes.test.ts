import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import { createDeepAgent, LocalShellBackend, SandboxBackend, ScriptedChatModel } from "delve";
import { connectMcp } from "delve/mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFixtureServer } from "../helpers/mcp-fixture-server.js";
import { liveDescendants, settledAlive } from "../helpers/process-tree.js";

// Cancel with processes: an abort while a sandbox or host command or an MCP call runs kills
// or cancels what the run started; a /proc walk finds no child process of the run left, and
// the thread resumes from its last checkpoint.

const user = (content: string) => ({ messages: [{ role: "user" as const, content }] });
const thread = (id: string) => ({ configurable: { thread_id: id } });

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "delve-cancel-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// Processes started since `before` that are still alive, after a moment to settle.
const leftSince = (before: Set<number>) =>
  settledAlive(() => liveDescendants().filter((pid) => !before.has(pid)));

async function waitFor(check: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 25));
  }
}

// Invokes, aborting once `ready()` holds (the stage under test has started).
async function abortWhen(agent: any, input: unknown, config: object, ready: () => boolean) {
  const controller = new AbortController();
  const started = Date.now();
  const run = agent.invoke(input, { ...config, signal: controller.signal }).then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  await waitFor(ready);
  const during = liveDescendants(); // What the process-tree check must find gone.
  controller.abort();
  const error = await run;
  return { error, tookMs: Date.now() - started, during };
}

// Sleeps 30 s the first time (leaving its pid in `marker`), answers at once afterwards.
const stuckCommand = (marker: string) =>
  `if [ -f ${marker} ]; then echo resumed; else echo $$ > ${marker}; sleep 30 & sleep 30; fi`;

describe("cancel with processes", () => {
  it("a sandbox command (sleep 30): its process tree is killed, the resume completes", async () => {
    const rootDir = fs.mkdtempSync(path.join(dir, "sandbox-"));
    const before = new Set(liveDescendants());
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "execute", args: { command: stuckCommand("started") } }] },
      (messages) => `out: ${messages.at(-1)?.content}`,
    ]);
    const agent = createDeepAgent({
      model,
      backend: new SandboxBackend({ rootDir }),
      checkpointer: new MemorySaver(),
    });
    const { error, tookMs, during } = await abortWhen(agent, user("go"), thread("sandbox"), () =>
      fs.existsSync(path.join(rootDir, "started")),
    );
    expect(error?.name).toBe("AbortError");
    expect(during.filter((pid) => !before.has(pid)).length).toBeGreaterThanOrEqual(3);
    expect(tookMs).toBeLessThan(10_000);
    expect(await leftSince(before)).toEqual([]);
    const out = await agent.invoke(null, thread("sandbox"));
    expect(String(out.messages.at(-1)?.content)).toMatch(/^out: resumed\n\[Exit code 0\]/);
  });

  it("host commands in two parallel subagents: both trees are killed, the resume completes", async () => {
    const rootDir = fs.mkdtempSync(path.join(dir, "local-"));
    const before = new Set(liveDescendants());
    const task = (description: string) => ({
      name: "task",
      args: { description, subagent_type: "general-purpose" },
    });
    const subagent = (messages: any[]) => {
      if (messages.at(-1)?.type === "tool") return `sub: ${messages.at(-1)?.content}`;
      const which = String(messages[1]?.content).includes("first") ? "a" : "b";
      return { toolCalls: [{ name: "execute", args: { command: stuckCommand(which) } }] };
    };
    const model = new ScriptedChatModel([
      { toolCalls: [task("first"), task("second")] },
      ...Array.from({ length: 4 }, () => subagent),
      "both done",
    ]);
    const agent = createDeepAgent({
      model,
      backend: new LocalShellBackend({ rootDir, timeout: 60 }),
      checkpointer: new MemorySaver(),
    });
    const started = (name: string) => fs.existsSync(path.join(rootDir, name));
    const { error, during } = await abortWhen(
      agent,
      user("go"),
      thread("local"),
      () => started("a") && started("b"),
    );
    expect(error?.name).toBe("AbortError");
    expect(await leftSince(before)).toEqual([]);
    const shells = ["a", "b"].map((n) => Number(fs.readFileSync(path.join(rootDir, n), "utf8")));
    // Both shells were children of this process while they ran.
    expect(shells.every((pid) => during.includes(pid))).toBe(true);
    const out = await agent.invoke(null, thread("local"));
    expect(String(out.messages.at(-1)?.content)).toBe("both done");
  });

  it("an MCP call to a hanging server: the request is cancelled, the resume completes", async () => {
    const log = path.join(dir, "mcp.log");
    const mcp = await connectMcp({
      fx: {
        transport: "stdio",
        command: process.execPath,
        args: [writeFixtureServer(dir)],
        env: { FIXTURE_LOG: log },
        include: ["hang_once"],
      },
    });
    const before = new Set(liveDescendants());
    try {
      const model = new ScriptedChatModel([
        { toolCalls: [{ name: "hang_once", args: {} }] },
        (messages) => `out: ${messages.at(-1)?.content}`,
      ]);
      const agent = createDeepAgent({ model, tools: mcp.tools, checkpointer: new MemorySaver() });
      const { error, tookMs } = await abortWhen(
        agent,
        user("go"),
        thread("mcp"),
        () => model.used === 1,
      );
      expect(error?.name).toBe("AbortError");
      expect(tookMs).toBeLessThan(5_000);
      // The server was told: the SDK sent notifications/cancelled for the request.
      await waitFor(() => fs.existsSync(log) && fs.readFileSync(log, "utf8").includes("cancelled"));
      // The resume re-runs the cancelled call on the same server, which answers now.
      const out = await agent.invoke(null, thread("mcp"));
      expect(String(out.messages.at(-1)?.content)).toBe("out: answered");
    } finally {
      await mcp.close();
    }
    expect(await leftSince(before)).toEqual([]);
  });
});
