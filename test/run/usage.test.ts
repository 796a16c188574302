import { HumanMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { MemorySaver } from "@langchain/langgraph";
import { createDeepAgent } from "delve";
import { ScriptedChatModel, type ScriptedStep } from "delve/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  readUsage,
  summarizeUsage,
  type UsageRecord,
  usageMiddleware,
  usageStateSchema,
} from "../../src/run/usage.js";
import { WIRE_APIS } from "../wire/providers.js";
import type { FakeApi } from "../wire/wire-rules.js";

const ask = (content: string) => ({ messages: [new HumanMessage(content)] });
const thread = (id: string) => ({ configurable: { thread_id: id }, recursionLimit: 100 });
const used = (input: number, output: number, extra: Record<string, unknown> = {}) =>
  ({ input_tokens: input, output_tokens: output, ...extra }) as never;

const strip = (records: UsageRecord[]) =>
  records.map(({ agent, input, output }) => `${agent}:${input}/${output}`);

describe("usageMiddleware through a real agent", () => {
  function agentWith(main: ScriptedStep[], sub: ScriptedStep[], checkpointer = new MemorySaver()) {
    return createDeepAgent({
      model: new ScriptedChatModel(main),
      middleware: [usageMiddleware()],
      stateSchema: usageStateSchema(),
      subagents: [
        {
          name: "researcher",
          description: "Finds facts.",
          systemPrompt: "Research.",
          model: new ScriptedChatModel(sub),
        },
      ],
      checkpointer,
    });
  }

  it("records the agent's and a subagent's calls, and the count continues on the thread", async () => {
    const checkpointer = new MemorySaver();
    const agent = agentWith(
      [
        {
          toolCalls: [
            { name: "task", args: { description: "find x", subagent_type: "researcher" } },
          ],
          usage: used(100, 10, { input_token_details: { cache_read: 40 } }),
        },
        { text: "x is 42", usage: used(200, 20) },
        { text: "still 42", usage: used(300, 30) },
      ],
      [{ text: "x is 42", usage: used(50, 5) }],
      checkpointer,
    );
    const first = await agent.invoke(ask("what is x?"), thread("u1"));
    expect(strip(readUsage(first))).toEqual(["main:100/10", "researcher:50/5", "main:200/20"]);
    expect(readUsage(first)[0]).toMatchObject({ cacheRead: 40 });

    const second = await agent.invoke(ask("sure?"), thread("u1"));
    expect(strip(readUsage(second))).toEqual([
      "main:100/10",
      "researcher:50/5",
      "main:200/20",
      "main:300/30",
    ]);

    // A new process: a fresh agent over the same saver reads the thread's whole usage.
    const resumed = agentWith([{ text: "yes", usage: used(7, 1) }], [], checkpointer);
    const state = (await resumed.getState(thread("u1"))) as { values: unknown };
    expect(readUsage(state.values)).toHaveLength(4);
    const third = await resumed.invoke(ask("ok"), thread("u1"));
    expect(strip(readUsage(third)).at(-1)).toBe("main:7/1");
    expect(readUsage(third)).toHaveLength(5);
  });

  it("a reply without usage metadata adds no record", async () => {
    const agent = agentWith(["hello"], []);
    const out = await agent.invoke(ask("hi"), thread("u2"));
    expect(readUsage(out)).toEqual([]);
    expect(out.messages.at(-1)?.text).toBe("hello");
  });

  it("records the summarizer's calls, tagged summarizer", async () => {
    const lookup = tool(
      async ({ n }: { n: number }) => `Record ${n}: ${"lorem ipsum ".repeat(60)}`,
      {
        name: "lookup",
        description: "Look up a record.",
        schema: z.object({ n: z.number() }),
      },
    );
    const steps: ScriptedStep[] = [];
    for (let n = 1; n <= 14; n++)
      steps.push({ toolCalls: [{ name: "lookup", args: { n } }], usage: used(1000, 10) });
    steps.push({ text: "done", usage: used(500, 5) });
    const agent = createDeepAgent({
      model: new ScriptedChatModel(steps),
      tools: [lookup],
      middleware: [usageMiddleware()],
      summarization: {
        model: new ScriptedChatModel(Array(10).fill({ text: "SUMMARY", usage: used(800, 80) })),
        contextWindow: 2_000,
        keep: { tokens: 100 },
      },
      checkpointer: new MemorySaver(),
    });
    const out = await agent.invoke(ask("look up 1 to 14"), thread("u3"));
    const records = readUsage(out);
    const summarizer = records.filter((r) => r.agent === "summarizer");
    expect(summarizer.length).toBeGreaterThan(0);
    expect(summarizer[0]).toMatchObject({ input: 800, output: 80 });
    expect(records.filter((r) => r.agent === "main")).toHaveLength(15);
  });

  it("keeps records compact in the checkpoint: a step stores its own records, not the list", async () => {
    const checkpointer = new MemorySaver();
    const steps: ScriptedStep[] = Array.from({ length: 30 }, (_, i) => ({
      toolCalls: [
        { name: "write_todos", args: { todos: [{ content: `t${i}`, status: "pending" }] } },
      ],
      usage: used(10, 1),
    }));
    steps.push({ text: "done", usage: used(10, 1) });
    const agent = createDeepAgent({
      model: new ScriptedChatModel(steps),
      middleware: [usageMiddleware()],
      stateSchema: usageStateSchema(),
      checkpointer,
    });
    const out = await agent.invoke(ask("go"), thread("u4"));
    expect(readUsage(out)).toHaveLength(31);
    const usageBytes: number[] = [];
    for await (const tuple of checkpointer.list(thread("u4"))) {
      const value = (tuple.checkpoint.channel_values as Record<string, unknown>).usage;
      usageBytes.push(value === undefined ? 0 : JSON.stringify(value).length);
    }
    // A delta channel stores no growing list per checkpoint.
    expect(Math.max(...usageBytes)).toBeLessThan(500);
  });
});

describe("usage from the real provider classes", () => {
  const fakes: FakeApi[] = [];
  beforeAll(async () => {
    for (const api of WIRE_APIS) fakes.push(await api.start());
  });
  afterAll(async () => {
    for (const fake of fakes) await fake.close();
  });

  it.each(WIRE_APIS.map((api, i) => [api.name, i] as const))(
    "%s: the record names provider:model and counts the provider's tokens",
    async (_name, i) => {
      const api = WIRE_APIS[i]!;
      const fake = fakes[i]!;
      fake.script([{ text: "hi" }]);
      const agent = createDeepAgent({ model: api.model(fake), middleware: [usageMiddleware()] });
      const out = await agent.invoke(ask("hello"));
      const [record] = readUsage(out);
      const expected =
        api.name === "anthropic" ? "anthropic:claude-sonnet-4-5" : "openai:gpt-4o-mini";
      expect(record).toMatchObject({ agent: "main", input: 10, output: 5 });
      expect(record!.model.startsWith(expected)).toBe(true);
    },
  );
});

describe("summarizeUsage", () => {
  const records: UsageRecord[] = [
    {
      model: "openai:gpt-4.1",
      agent: "main",
      input: 1_000_000,
      output: 100_000,
      cacheRead: 500_000,
    },
    { model: "openai:gpt-4.1", agent: "researcher", input: 200_000, output: 0 },
    { model: "ollama:qwen3", agent: "summarizer", input: 10, output: 1 },
  ];

  it("totals per model and per agent, priced from the table", () => {
    const s = summarizeUsage(records);
    expect(s.byModel["openai:gpt-4.1"]).toMatchObject({
      calls: 2,
      input: 1_200_000,
      output: 100_000,
      cacheRead: 500_000,
    });
    // main: 500k uncached at $2, 500k cached at $0.50, 100k output at $8; researcher: 200k at $2.
    expect(s.byModel["openai:gpt-4.1"]!.costUsd).toBeCloseTo(1 + 0.25 + 0.8 + 0.4, 10);
    expect(s.byAgent.main!.costUsd).toBeCloseTo(2.05, 10);
    expect(s.byAgent.researcher!.costUsd).toBeCloseTo(0.4, 10);
    expect(s.byAgent.summarizer!.costUsd).toBeUndefined();
    expect(s.total.costUsd).toBeUndefined();
    expect(s.total.calls).toBe(3);
    expect(s.unpricedModels).toEqual(["ollama:qwen3"]);
  });

  it("prices unknown models from overrides", () => {
    const s = summarizeUsage(records, { "ollama:qwen3": { input: 0, output: 0 } });
    expect(s.total.costUsd).toBeCloseTo(2.45, 10);
    expect(s.unpricedModels).toEqual([]);
  });

  it("groups a model named __proto__ as a plain key", () => {
    const s = summarizeUsage([{ model: "__proto__", agent: "__proto__", input: 1, output: 1 }]);
    expect(Object.keys(s.byModel)).toEqual(["__proto__"]);
    expect(Object.getOwnPropertyDescriptor(s.byAgent, "__proto__")?.value.calls).toBe(1);
  });

  it("reads nothing from a state without usage, and skips malformed records", () => {
    expect(readUsage(undefined)).toEqual([]);
    expect(readUsage({ usage: "x" })).toEqual([]);
    expect(readUsage({ usage: [{ model: "m" }, records[0]] })).toEqual([records[0]]);
  });
});
