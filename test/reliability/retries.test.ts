import { ChatAnthropic } from "@langchain/anthropic";
import { MemorySaver } from "@langchain/langgraph";
import { ChatOpenAI } from "@langchain/openai";
import { createDeepAgent, ModelCallError } from "delve";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeAnthropic } from "../wire/fake-anthropic.js";
import { startFakeOpenAi } from "../wire/fake-openai.js";
import type { FakeApi, WireTurn } from "../wire/wire-rules.js";

// Model-call retries through the real ChatOpenAI and ChatAnthropic against the fake
// providers: 429 with Retry-After, 500/503, a connection reset mid-response, a hang.

const user = (content: string) => ({ messages: [{ role: "user" as const, content }] });
const thread = (id: string) => ({ configurable: { thread_id: id } });
// Short delays keep the suite fast; the classes' own maxRetries is left at its default (6),
// so a fake that sees exactly the attempts counted here proves one layer retries.
const FAST = { initialDelayMs: 20, maxDelayMs: 100, attemptTimeoutMs: 400 };

const PROVIDERS = [
  {
    name: "openai",
    start: startFakeOpenAi,
    model: (fake: FakeApi) =>
      new ChatOpenAI({
        model: "gpt-4o-mini",
        apiKey: "sk-test",
        configuration: { baseURL: fake.url },
      }),
  },
  {
    name: "anthropic",
    start: startFakeAnthropic,
    model: (fake: FakeApi) =>
      new ChatAnthropic({
        model: "claude-sonnet-4-5",
        apiKey: "sk-ant-test",
        anthropicApiUrl: fake.url,
      }),
  },
] as const;

let fake: FakeApi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe.each(PROVIDERS)("$name", (provider) => {
  const agentOn = async (turns: WireTurn[], modelRetry: object = FAST) => {
    fake = await provider.start();
    fake.script(turns);
    const checkpointer = new MemorySaver();
    return createDeepAgent({ model: provider.model(fake), checkpointer, modelRetry });
  };

  it("a 429 is retried no sooner than its Retry-After, then the run completes", async () => {
    const agent = await agentOn([{ fault: "429", retryAfter: 1 }, { text: "fine" }]);
    const started = Date.now();
    const out = await agent.invoke(user("hi"), thread("429"));
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(String(out.messages.at(-1)?.content)).toBe("fine");
    expect(fake!.requests).toHaveLength(2);
  });

  it("500, 503 and a reset connection are retried with backoff", async () => {
    const agent = await agentOn([
      { fault: "500" },
      { fault: "503" },
      { fault: "reset" },
      { text: "fine" },
    ]);
    const out = await agent.invoke(user("hi"), thread("5xx"));
    expect(String(out.messages.at(-1)?.content)).toBe("fine");
    expect(fake!.requests).toHaveLength(4);
  });

  it("a hanging attempt is cancelled at attemptTimeoutMs and retried", async () => {
    const agent = await agentOn([{ fault: "hang" }, { text: "fine" }]);
    const out = await agent.invoke(user("hi"), thread("hang"));
    expect(String(out.messages.at(-1)?.content)).toBe("fine");
    // The timed-out request was cancelled, not left open.
    // (On a loaded machine a first attempt may time out before it is even sent: the hang
    // then meets the next one.)
    const hung = () => fake!.requests.find((r) => r.rejected === "fault hang");
    const deadline = Date.now() + 10_000;
    while (!hung()?.abandoned && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(hung()?.abandoned).toBe(true);
  });

  it("after the last retry the run stops with a named error, and the thread resumes", async () => {
    const agent = await agentOn(
      [
        { fault: "503", requestId: "req_first" },
        { fault: "503", requestId: "req_last" },
        { text: "resumed" },
      ],
      { ...FAST, maxRetries: 1 },
    );
    const error = await agent.invoke(user("hi"), thread("fail")).catch((e: unknown) => e);
    expect(ModelCallError.isInstance(error)).toBe(true);
    const failure = error as ModelCallError;
    expect(failure.code).toBe("MODEL_CALL_FAILED");
    expect(failure.provider).toBe(provider.name);
    expect(failure.status).toBe(503);
    expect(failure.requestId).toBe("req_last");
    expect(failure.attempts).toBe(2);
    expect(failure.message).toContain(
      `The ${provider.name} model call failed after 2 attempts (status 503, request id req_last)`,
    );
    expect(fake!.requests).toHaveLength(2);
    const out = await agent.invoke(null, thread("fail"));
    expect(out.messages.map((m: any) => m.content)).toEqual(["hi", "resumed"]);
  });

  it("a request the provider refuses (400) is not retried", async () => {
    const agent = await agentOn([{ fail: "bad request" }, { text: "never" }]);
    const error = await agent.invoke(user("hi"), thread("400")).catch((e: unknown) => e);
    expect(ModelCallError.isInstance(error)).toBe(false);
    expect(String((error as Error).message)).toContain("bad request");
    expect(fake!.requests).toHaveLength(1);
  });
});

describe("retries and cancel", () => {
  it("a cancel during the backoff ends the run at once", async () => {
    fake = await startFakeOpenAi();
    fake.script([{ fault: "429", retryAfter: 30 }, { text: "never" }]);
    const agent = createDeepAgent({
      model: PROVIDERS[0].model(fake),
      checkpointer: new MemorySaver(),
      modelRetry: FAST,
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const started = Date.now();
    const error = await agent
      .invoke(user("hi"), { ...thread("cancel"), signal: controller.signal })
      .catch((e: unknown) => e as Error);
    expect((error as Error).name).toBe("AbortError");
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(fake.requests).toHaveLength(1);
  });

  it("modelRetry: false leaves retries to the provider class", async () => {
    fake = await startFakeOpenAi();
    fake.script([{ fault: "500" }, { text: "never" }]);
    const model = new ChatOpenAI({
      model: "gpt-4o-mini",
      apiKey: "sk-test",
      maxRetries: 0,
      configuration: { baseURL: fake.url },
    });
    const agent = createDeepAgent({ model, modelRetry: false });
    const error = await agent.invoke(user("hi")).catch((e: unknown) => e);
    expect(ModelCallError.isInstance(error)).toBe(false);
    expect(fake.requests).toHaveLength(1);
  });
});
