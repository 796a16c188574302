import { MemorySaver } from "@langchain/langgraph";
import { createDeepAgent } from "delve";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeOpenAi } from "../wire/fake-openai.js";
import { WIRE_APIS } from "../wire/providers.js";
import type { FakeApi, WireRequest } from "../wire/wire-rules.js";

// A model-call attempt that times out must close its HTTP request, not leave it open while
// the retry goes ahead: through the real provider classes against the fake providers, whose
// hanging request records when the client closed its connection.

const user = (content: string) => ({ messages: [{ role: "user" as const, content }] });
const thread = (id: string) => ({ configurable: { thread_id: id } });

let fake: FakeApi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const hung = (api: FakeApi): WireRequest | undefined =>
  api.requests.find((r) => r.rejected === "fault hang");

// Waits (with a deadline, not a fixed sleep) for the hanging request's connection to close.
async function closedInTime(api: FakeApi, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!hung(api)?.abandoned && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 20));
  return hung(api)?.abandoned === true;
}

// The classes' own retries are off (WIRE_APIS): the retry that answers is Delve's.
describe.each(WIRE_APIS)("$name", (entry) => {
  it("a timed-out attempt closes its HTTP request, and the retry answers", async () => {
    fake = await entry.start();
    fake.script([{ fault: "hang" }, { text: "fine" }]);
    const agent = createDeepAgent({
      model: entry.model(fake),
      checkpointer: new MemorySaver(),
      modelRetry: { initialDelayMs: 20, maxDelayMs: 100, attemptTimeoutMs: 400 },
    });
    const out = await agent.invoke(user("hi"), thread("timeout"));
    expect((out.messages.at(-1) as { text?: string } | undefined)?.text).toBe("fine");
    expect(hung(fake)).toBeDefined();
    // Closed by the client: the fake itself never answers a hang until it shuts down.
    expect(await closedInTime(fake, 10_000)).toBe(true);
  });
});

describe("the run's signal still reaches the attempt", () => {
  it("a cancel while an attempt hangs (long before its timeout) closes the request", async () => {
    fake = await startFakeOpenAi();
    fake.script([{ fault: "hang" }, { text: "never" }]);
    const agent = createDeepAgent({
      model: WIRE_APIS[0].model(fake),
      checkpointer: new MemorySaver(),
      modelRetry: { attemptTimeoutMs: 600_000 },
    });
    const controller = new AbortController();
    const api = fake;
    const watch = setInterval(() => {
      if (hung(api)) controller.abort();
    }, 20);
    const error = await agent
      .invoke(user("hi"), { ...thread("cancel"), signal: controller.signal })
      .then(
        () => undefined,
        (e: unknown) => e as Error,
      )
      .finally(() => clearInterval(watch));
    expect(error?.name).toBe("AbortError");
    expect(await closedInTime(fake, 10_000)).toBe(true);
    expect(fake.requests).toHaveLength(1);
  });
});
