import { tool } from "@langchain/core/tools";
import { MemorySaver } from "@langchain/langgraph";
import { ChatOpenAI } from "@langchain/openai";
import { createDeepAgent, ScriptedChatModel } from "delve";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { liveDescendants, settledAlive } from "../helpers/process-tree.js";
import { startFakeOpenAi } from "../wire/fake-openai.js";
import type { FakeApi } from "../wire/wire-rules.js";

// Cancel: an AbortSignal passed to invoke stops the run at whatever stage it is in; the
// invoke rejects promptly, nothing the run started keeps running, and invoke(null) on the
// thread resumes from its last checkpoint and completes.

const user = (content: string) => ({ messages: [{ role: "user" as const, content }] });
const thread = (id: string) => ({ configurable: { thread_id: id } });
// The thread's checkpointed state: `next` names the nodes a resume runs.
const pendingOf = (agent: unknown, id: string) =>
  (agent as { getState(c: object): Promise<{ next: string[] }> }).getState(thread(id));

// Invokes with a signal aborted after `ms`, or once `ready()` holds; resolves to the error
// and the time from the abort to the rejection.
async function abortAfter(
  agent: any,
  input: unknown,
  config: object,
  when: number | (() => boolean),
) {
  const controller = new AbortController();
  let abortedAt = 0;
  const abort = () => {
    abortedAt = Date.now();
    controller.abort();
  };
  const timer = typeof when === "number" ? setTimeout(abort, when) : undefined;
  const poll =
    typeof when === "function"
      ? setInterval(() => {
          if (!abortedAt && when()) abort();
        }, 10)
      : undefined;
  const error = await agent.invoke(input, { ...config, signal: controller.signal }).then(
    () => undefined,
    (e: unknown) => e,
  );
  clearTimeout(timer);
  clearInterval(poll);
  return { error: error as Error | undefined, tookMs: Date.now() - abortedAt };
}

// A tool that never returns on its first call (it records the signal it held) and
// answers on the next.
function stuckOnce(name: string, seen: { signals: AbortSignal[] }) {
  let calls = 0;
  return tool(
    async (_input, config) => {
      if (calls++ > 0) return `${name} ok`;
      if (config?.signal) seen.signals.push(config.signal);
      return new Promise<string>(() => {});
    },
    { name, description: `Runs ${name}.`, schema: z.object({}) },
  );
}

let fake: FakeApi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe("cancel", () => {
  it("during a model call hanging on the provider: the request is dropped, the thread resumes", async () => {
    fake = await startFakeOpenAi();
    fake.script([{ fault: "hang" }, { text: "the answer" }]);
    const model = new ChatOpenAI({
      model: "gpt-4o-mini",
      apiKey: "sk-test",
      maxRetries: 0,
      configuration: { baseURL: fake.url },
    });
    const agent = createDeepAgent({ model, checkpointer: new MemorySaver() });
    // Aborted once the provider holds the request (not after a fixed delay: on a loaded
    // machine the request may not be sent yet).
    const { error, tookMs } = await abortAfter(agent, user("hi"), thread("model"), () =>
      Boolean(fake?.requests.length),
    );
    expect(error?.name).toBe("AbortError");
    expect(tookMs).toBeLessThan(3_000);
    // The HTTP request itself was cancelled, not left open.
    const deadline = Date.now() + 10_000;
    while (!fake.requests[0]?.abandoned && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(fake.requests[0]?.abandoned).toBe(true);
    const state = await pendingOf(agent, "model");
    expect(state.next).toEqual(["model_request"]);
    const out = await agent.invoke(null, thread("model"));
    expect(out.messages.map((m: any) => m.content)).toEqual(["hi", "the answer"]);
  });

  it("during a tool that never returns: its signal is aborted, the call re-runs on resume", async () => {
    const seen = { signals: [] as AbortSignal[] };
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "fetch_report", args: {} }] },
      (messages) => `got: ${messages.at(-1)?.content}`,
    ]);
    const agent = createDeepAgent({
      model,
      tools: [stuckOnce("fetch_report", seen)],
      checkpointer: new MemorySaver(),
    });
    const { error, tookMs } = await abortAfter(agent, user("go"), thread("tool"), 300);
    expect(error?.name).toBe("AbortError");
    expect(tookMs).toBeLessThan(3_000);
    expect(seen.signals).toHaveLength(1);
    expect(seen.signals[0]!.aborted).toBe(true);
    // The model's reply with the call is checkpointed: the resume runs the tool, not the model.
    expect((await pendingOf(agent, "tool")).next).toEqual(["tools"]);
    const out = await agent.invoke(null, thread("tool"));
    expect(String(out.messages.at(-1)?.content)).toBe("got: fetch_report ok");
    expect(model.used).toBe(2);
  });

  it("inside subagents: every running subagent's tool is aborted, the thread resumes", async () => {
    const seen = { signals: [] as AbortSignal[] };
    const task = (description: string) => ({
      name: "task",
      args: { description, subagent_type: "general-purpose" },
    });
    // Each subagent calls its own stuck tool (the two run in parallel), then answers with
    // the tool's result. Subagents checkpoint in the thread too: the resume continues each
    // from its pending tool call, without calling its model again.
    const subagent = (messages: any[]) =>
      messages.at(-1)?.type === "tool"
        ? `sub: ${messages.at(-1)?.content}`
        : {
            toolCalls: [
              { name: String(messages[1]?.content).includes("first") ? "a" : "b", args: {} },
            ],
          };
    const model = new ScriptedChatModel([
      { toolCalls: [task("first"), task("second")] },
      ...Array.from({ length: 4 }, () => subagent),
      "both done",
    ]);
    const agent = createDeepAgent({
      model,
      tools: [stuckOnce("a", seen), stuckOnce("b", seen)],
      checkpointer: new MemorySaver(),
    });
    const { error, tookMs } = await abortAfter(agent, user("go"), thread("sub"), 400);
    expect(error?.name).toBe("AbortError");
    expect(tookMs).toBeLessThan(3_000);
    expect(seen.signals).toHaveLength(2);
    expect(seen.signals.every((s) => s.aborted)).toBe(true);
    const { next } = await pendingOf(agent, "sub");
    expect(next.length > 0 && next.every((n: string) => n === "tools")).toBe(true);
    const out = await agent.invoke(null, thread("sub"));
    expect(String(out.messages.at(-1)?.content)).toBe("both done");
    const results = out.messages.filter((m: any) => m.type === "tool").map((m: any) => m.content);
    expect(results.sort()).toEqual(["sub: a ok", "sub: b ok"]);
    expect(model.used).toBe(6);
  });

  it("an abort before the run starts stops it at once and leaves no process", async () => {
    const before = new Set(liveDescendants());
    const model = new ScriptedChatModel(["never"]);
    const agent = createDeepAgent({ model, checkpointer: new MemorySaver() });
    const error = await agent
      .invoke(user("hi"), { ...thread("early"), signal: AbortSignal.abort() })
      .catch((e: unknown) => e as Error);
    expect((error as Error).name).toBe("AbortError");
    expect(model.used).toBe(0);
    expect(await settledAlive(() => liveDescendants().filter((p) => !before.has(p)))).toEqual([]);
  });
});
