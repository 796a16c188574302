import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { MemorySaver } from "@langchain/langgraph";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { InMemoryBackend } from "../../../src/backends/file-map/in-memory.js";
import { summarizationMiddleware } from "../../../src/context/summarization/middleware.js";
import { SUMMARY_PROMPT } from "../../../src/context/summarization/summarize.js";
import { filesystemMiddleware } from "../../../src/filesystem/middleware.js";
import { createDeepAgent } from "../../../src/index.js";
import { ScriptedChatModel, type ScriptedStep } from "../../../src/testing/index.js";

const thread = (id: string) => ({ configurable: { thread_id: id }, recursionLimit: 100 });
const ask = (content: string) => ({ messages: [new HumanMessage(content)] });

// A record of about 160 tokens, numbered so a test can tell which ones the model still sees.
const lookup = tool(
  async ({ n }: { n: number }) => `Record ${n}: ${"lorem ipsum dolor sit amet ".repeat(30)}`,
  { name: "lookup", description: "Look up a record.", schema: z.object({ n: z.number() }) },
);

// `count` lookups, one per step, then a final answer.
function conversation(prefix: string, count: number): ScriptedStep[] {
  const steps: ScriptedStep[] = [];
  for (let n = 1; n <= count; n++) {
    steps.push({ toolCalls: [{ name: "lookup", args: { n }, id: `${prefix}_${n}` }] });
  }
  steps.push(`${prefix} finished`);
  return steps;
}

const kinds = (messages: BaseMessage[]) => messages.map((m) => m.getType());
const isSummary = (m: BaseMessage | undefined) =>
  m?.additional_kwargs?.lc_source === "summarization";

// Every tool result in a request follows the AI message that made its call.
function pairsIntact(messages: BaseMessage[]): boolean {
  const called = new Set<string>();
  for (const m of messages) {
    if (AIMessage.isInstance(m)) for (const c of m.tool_calls ?? []) called.add(c.id!);
    if (ToolMessage.isInstance(m) && !called.has(m.tool_call_id)) return false;
  }
  return true;
}

/** A scripted model that declares an input window in its LangChain profile. */
class ProfiledModel extends ScriptedChatModel {
  override get profile() {
    return { maxInputTokens: 2_000 };
  }
}

describe("summarization", () => {
  it("a long conversation is summarised at 85% of a 2,000-token window: the model sees a summary and the recent tail", async () => {
    const model = new ScriptedChatModel(conversation("call", 14));
    const summarizer = new ScriptedChatModel(Array(8).fill("SUMMARY: looked up the first records"));
    const agent = createAgent({
      model,
      tools: [lookup],
      checkpointer: new MemorySaver(),
      // The newest tool result alone is over 100 tokens: the tail must reach back to its call.
      middleware: [
        summarizationMiddleware({ model: summarizer, contextWindow: 2_000, keep: { tokens: 100 } }),
      ],
    });
    const out = await agent.invoke(ask("Look up records 1 to 14"), thread("sum-thread"));
    expect(out.messages.at(-1)!.text).toBe("call finished");

    const first = model.calls.findIndex((c) => isSummary(c.messages[0]));
    expect(first).toBeGreaterThan(3);
    const request = model.calls[first]!.messages;
    expect(request[0]!.text).toContain("/conversation_history/sum-thread.md");
    expect(request[0]!.text).toContain(
      "<summary>\nSUMMARY: looked up the first records\n</summary>",
    );
    expect(kinds(request.slice(1, 3))).toEqual(["ai", "tool"]);
    expect(request.length).toBeLessThan(model.calls[first - 1]!.messages.length);
    for (const call of model.calls) expect(pairsIntact(call.messages)).toBe(true);

    const summaryRequest = summarizer.calls[0]!.messages[0]!.text;
    expect(summaryRequest).toContain(SUMMARY_PROMPT);
    expect(summaryRequest).toContain("Look up records 1 to 14");
    expect(summaryRequest).toContain("Record 1:");

    const transcript = out.files["/conversation_history/sum-thread.md"].content as string;
    expect(transcript).toContain("## Summarized at");
    expect(transcript).toContain("### user\nLook up records 1 to 14");
    expect(transcript).toContain(`Record 1: ${"lorem ipsum dolor sit amet ".repeat(30)}`);
    expect(transcript).toContain("- tool call lookup (call_1)");

    // The thread's saved messages were rewritten, not only the request.
    expect(isSummary(out.messages[0])).toBe(true);
    expect(out.messages.length).toBeLessThan(14 * 2);
    expect(pairsIntact(out.messages)).toBe(true);
  });

  it("each thread appends to its own transcript file, even through one shared backend", async () => {
    const backend = new InMemoryBackend();
    const model = new ScriptedChatModel([...conversation("a", 10), ...conversation("b", 10)]);
    const summarizer = new ScriptedChatModel([
      "SUMMARY-A",
      "SUMMARY-A2",
      "SUMMARY-B",
      "SUMMARY-B2",
    ]);
    const agent = createAgent({
      model,
      tools: [lookup],
      checkpointer: new MemorySaver(),
      middleware: [summarizationMiddleware({ model: summarizer, contextWindow: 2_000, backend })],
    });
    await agent.invoke(ask("thread A task"), thread("thread-a"));
    await agent.invoke(ask("thread B task"), thread("thread-b"));
    const read = async (path: string) =>
      Buffer.from((await backend.downloadFiles([path]))[0]!.content!).toString();
    const a = await read("/conversation_history/thread-a.md");
    const b = await read("/conversation_history/thread-b.md");
    expect(a).toContain("thread A task");
    expect(a).not.toContain("thread B task");
    expect(b).toContain("thread B task");
    expect(b).not.toContain("thread A task");
  });

  it("a context-overflow error from the provider triggers summarisation and one retry", async () => {
    const model = new ScriptedChatModel([
      ...conversation("call", 3).slice(0, 3),
      () => {
        throw new Error("400 prompt is too long: 250000 tokens > 200000 maximum");
      },
      "answered after the retry",
    ]);
    const summarizer = new ScriptedChatModel(["SUMMARY-OVERFLOW"]);
    const agent = createAgent({
      model,
      tools: [lookup],
      middleware: [
        summarizationMiddleware({
          model: summarizer,
          contextWindow: 1_000_000,
          keep: { messages: 2 },
        }),
      ],
    });
    const out = await agent.invoke(ask("Look up records"), thread("overflow"));
    expect(out.messages.at(-1)!.text).toBe("answered after the retry");
    expect(summarizer.calls).toHaveLength(1);
    expect(model.calls).toHaveLength(5);
    const retry = model.calls[4]!.messages;
    expect(retry[0]!.text).toContain("SUMMARY-OVERFLOW");
    expect(retry.slice(1).map((m) => m.getType())).toEqual(["ai", "tool"]);
    expect(model.calls[3]!.messages).toHaveLength(7);
  });

  it("an overflow that persists after the one retry reaches the caller", async () => {
    const overflow = () => {
      const error = new Error("This model's maximum context length is 8192 tokens.");
      (error as any).code = "context_length_exceeded";
      throw error;
    };
    const model = new ScriptedChatModel([
      ...conversation("call", 2).slice(0, 2),
      overflow,
      overflow,
    ]);
    const agent = createAgent({
      model,
      tools: [lookup],
      middleware: [
        summarizationMiddleware({
          model: new ScriptedChatModel(["S"]),
          contextWindow: 1_000_000,
          keep: { messages: 1 },
        }),
      ],
    });
    await expect(agent.invoke(ask("go"), thread("overflow-twice"))).rejects.toThrow(
      /maximum context length/,
    );
    expect(model.calls).toHaveLength(4);
  });

  it("huge write_file arguments in old messages are shortened first, and that alone can be enough", async () => {
    const content = "word ".repeat(8_000); // About 8,000 tokens.
    const longRecord = tool(async () => "lorem ipsum dolor sit amet ".repeat(300), {
      name: "long_record",
      description: "Fetch a long record.",
      schema: z.object({}),
    });
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "write_file", args: { file_path: "/report.md", content } }] },
      { toolCalls: [{ name: "long_record", args: {} }] },
      "done",
    ]);
    const agent = createAgent({
      model,
      tools: [longRecord],
      middleware: [
        filesystemMiddleware({ tools: ["ls", "read_file", "write_file"] }),
        summarizationMiddleware({
          model: new ScriptedChatModel([]), // Any summary call would throw: none is expected.
          contextWindow: 11_000, // The second request (~8,600 tokens) fits; the third does not.
          keep: { messages: 2 },
        }),
      ],
    });
    const out = await agent.invoke(ask("write the report"), thread("args"));
    expect(out.files["/report.md"].content).toBe(content);
    expect(model.calls[1]!.messages[1]).toHaveProperty("tool_calls.0.args.content", content);
    const sent = model.calls[2]!.messages[1] as AIMessage;
    const note = sent.tool_calls![0]!.args.content as string;
    expect(note).toMatch(
      /^\(40000 chars; full text in \/conversation_history\/args\.args\/[\w-]+-content-[0-9a-f]{12}\.txt\)$/,
    );
    // The note names a file that holds the argument as it was sent.
    const kept = note.slice(note.indexOf("/conversation_history/"), -1);
    expect(out.files[kept].content).toBe(content);
    const saved = out.messages[1] as AIMessage;
    expect(saved.id).toBe(model.calls[1]!.messages[1]!.id);
    expect(saved.tool_calls![0]!.args.content).toBe(note);
    expect(out.messages.some(isSummary)).toBe(false);
  });

  it("the window comes from the model's LangChain profile when contextWindow is not given", async () => {
    // The agent's own model writes the summary too: answer summary requests, else follow the script.
    const script = conversation("call", 12);
    const model = new ProfiledModel(
      Array.from(
        { length: 20 },
        () => (messages: BaseMessage[]) =>
          messages[0]?.text.startsWith(SUMMARY_PROMPT) ? "SUMMARY" : (script.shift()! as any),
      ),
    );
    const agent = createAgent({
      model,
      tools: [lookup],
      middleware: [summarizationMiddleware()],
    });
    const out = await agent.invoke(ask("go"), thread("profiled"));
    expect(out.files["/conversation_history/profiled.md"]).toBeDefined();
    expect(model.calls.some((c) => isSummary(c.messages[0]))).toBe(true);
  });

  it("an explicitly configured summarization whose agent model has no known window is a construction error", () => {
    expect(() =>
      createDeepAgent({
        model: new ScriptedChatModel([]),
        summarization: { model: new ScriptedChatModel([]) },
      }),
    ).toThrow(/contextWindow/);
    expect(() =>
      summarizationMiddleware({
        model: new ScriptedChatModel([]),
        agentModel: new ScriptedChatModel([]),
      }),
    ).toThrow(/contextWindow/);
    // The agent's model declares its window: a separate summarizer without one is fine.
    expect(() =>
      createDeepAgent({
        model: new ProfiledModel([]),
        summarization: { model: new ScriptedChatModel([]) },
      }),
    ).not.toThrow();
    expect(() =>
      summarizationMiddleware({ model: new ScriptedChatModel([]), contextWindow: 32_000 }),
    ).not.toThrow();
    expect(() =>
      summarizationMiddleware({ model: new ScriptedChatModel([]), defaultContextWindow: 128_000 }),
    ).not.toThrow();
    expect(() => summarizationMiddleware({ contextWindow: 1000, trigger: 1.5 })).toThrow(/trigger/);
    expect(() => summarizationMiddleware({ contextWindow: 1000, keep: { fraction: 2 } })).toThrow(
      /keep/,
    );
  });

  it("a model with no window and no contextWindow fails its first call with the fix", async () => {
    const agent = createAgent({
      model: new ScriptedChatModel(["never"]),
      middleware: [summarizationMiddleware()],
    });
    await expect(agent.invoke(ask("hi"))).rejects.toThrow(/pass contextWindow/);
  });
});
