import { ContextOverflowError } from "@langchain/core/errors";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { ScriptedChatModel } from "delve/testing";
import { MiddlewareError } from "langchain";
import { describe, expect, it } from "vitest";
import { contextWindowAtCall, profileContextWindow } from "../../src/context/context-window.js";
import { evictedNotice, previewLines } from "../../src/context/eviction/preview.js";
import { safeFileName } from "../../src/context/safe-name.js";
import { findCutoff } from "../../src/context/summarization/cutoff.js";
import { isContextOverflowError } from "../../src/context/summarization/overflow.js";
import {
  type LongFileArg,
  shortenOldFileArgs,
} from "../../src/context/summarization/shorten-args.js";
import { writeSummary } from "../../src/context/summarization/summarize.js";
import { transcriptPath } from "../../src/context/summarization/transcript-file.js";
import { exceedsTokens, headAndTail, textTokens } from "../../src/context/token-estimate.js";

const call = (id: string, name = "lookup", args: Record<string, unknown> = {}) =>
  new AIMessage({
    id: `ai-${id}`,
    content: "",
    tool_calls: [{ id, name, args, type: "tool_call" }],
  });
const result = (id: string, status: "success" | "error" = "success") =>
  new ToolMessage({ id: `tm-${id}`, content: "ok", tool_call_id: id, status });

describe("safe file names", () => {
  it("a plain id is kept; a long or odd one becomes a short, distinct, stable name", () => {
    expect(safeFileName("call_AbC-123")).toBe("call_AbC-123");
    const long = safeFileName("x".repeat(5_000));
    expect(long.length).toBeLessThanOrEqual(53);
    expect(long).toBe(safeFileName("x".repeat(5_000)));
    expect(safeFileName("a.b")).not.toBe(safeFileName("a/b"));
    expect(safeFileName("../../etc/passwd")).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(safeFileName("")).toMatch(/^id-[0-9a-f]{12}$/);
  });
});

describe("previews", () => {
  it("shows the first and last lines numbered like read_file, with the omitted count", () => {
    const text = Array.from({ length: 120 }, (_, i) => `line ${i + 1}`).join("\n");
    expect(previewLines(text).split("\n")).toEqual([
      "  1  line 1",
      "  2  line 2",
      "  3  line 3",
      "  4  line 4",
      "  5  line 5",
      "... [110 lines omitted] ...",
      "116  line 116",
      "117  line 117",
      "118  line 118",
      "119  line 119",
      "120  line 120",
    ]);
  });

  it("a short text is shown whole and an over-long line is clipped", () => {
    expect(previewLines("a\nb")).toBe("1  a\n2  b");
    const clipped = previewLines("y".repeat(2_000));
    expect(clipped).toBe(`1  ${"y".repeat(500)}... [1500 more characters]`);
  });

  it("the notice mentions read_file and grep only when visible", () => {
    const none = evictedNotice("a\nb", "/large_tool_results/x", { mentions: () => false });
    expect(none).not.toMatch(/read_file|grep/);
    const both = evictedNotice("a\nb", "/large_tool_results/x", { mentions: () => true });
    expect(both).toMatch(/read_file.*offset.*limit/s);
    expect(both).toContain("grep");
  });
});

describe("token estimates", () => {
  it("exceedsTokens agrees with the full estimate and counts CJK text per character", () => {
    const text = "The quick brown fox jumps over the lazy dog. ".repeat(3_000);
    const total = textTokens(text);
    expect(exceedsTokens(text, total - 1)).toBe(true);
    expect(exceedsTokens(text, total + 1)).toBe(false);
    // chars/4 would call this 2,500 tokens.
    expect(exceedsTokens("上下文管理".repeat(2_000), 9_000)).toBe(true);
  });

  it("headAndTail keeps both ends within the budget", () => {
    const text = Array.from({ length: 5_000 }, (_, i) => `entry ${i}`).join("\n");
    const { head, tail, cut } = headAndTail(text, 1_000);
    expect(head.startsWith("entry 0\n")).toBe(true);
    expect(tail.endsWith("entry 4999")).toBe(true);
    expect(textTokens(head) + textTokens(tail)).toBeLessThanOrEqual(1_000);
    expect(cut).toBe(text.length - head.length - tail.length);
  });
});

describe("provider context-overflow errors", () => {
  it.each([
    ["Anthropic", new Error("prompt is too long: 210000 tokens > 200000 maximum")],
    ["OpenAI message", new Error("This model's maximum context length is 128000 tokens.")],
    ["OpenAI code", Object.assign(new Error("Bad request"), { code: "context_length_exceeded" })],
    [
      "OpenAI body",
      Object.assign(new Error("400"), { error: { error: { code: "context_length_exceeded" } } }),
    ],
    [
      "Google",
      new Error(
        "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
      ),
    ],
    ["Bedrock", new Error("ValidationException: Input is too long for requested model.")],
    ["LangChain", new ContextOverflowError()],
    [
      "wrapped by middleware",
      MiddlewareError.wrap(new Error("prompt is too long: 9 > 8"), "SomeMiddleware"),
    ],
  ])("%s is recognised", (_name, error) => {
    expect(isContextOverflowError(error)).toBe(true);
  });

  it("other errors are not", () => {
    expect(isContextOverflowError(new Error("rate limit exceeded"))).toBe(false);
    expect(isContextOverflowError(new Error("invalid api key"))).toBe(false);
    expect(isContextOverflowError(undefined)).toBe(false);
  });
});

describe("cutting a conversation", () => {
  it("the kept tail never starts with a tool result", () => {
    const messages = [
      new HumanMessage({ id: "h", content: "go" }),
      new AIMessage({
        id: "ai",
        content: "",
        tool_calls: [
          { id: "a", name: "x", args: {}, type: "tool_call" },
          { id: "b", name: "x", args: {}, type: "tool_call" },
        ],
      }),
      result("a"),
      result("b"),
    ];
    expect(findCutoff(messages, { messages: 1 }, 1_000)).toBe(1);
    expect(findCutoff(messages, { messages: 2 }, 1_000)).toBe(1);
    expect(findCutoff(messages, { tokens: 1 }, 1_000)).toBe(1);
    expect(findCutoff(messages, { messages: 4 }, 1_000)).toBe(0);
  });
});

describe("shortening old file arguments", () => {
  it("shortens successful write_file and edit_file arguments everywhere the message holds them", () => {
    const big = "z".repeat(3_000);
    const anthropicStyle = new AIMessage({
      id: "ai-w",
      content: [
        { type: "text", text: "Writing." },
        {
          type: "tool_use",
          id: "w",
          name: "write_file",
          input: { file_path: "/a.md", content: big },
        },
      ],
      tool_calls: [
        {
          id: "w",
          name: "write_file",
          args: { file_path: "/a.md", content: big },
          type: "tool_call",
        },
      ],
    });
    const edit = call("e", "edit_file", { file_path: "/b.md", old_string: big, new_string: big });
    const failed = call("f", "write_file", { file_path: "/c.md", content: big });
    const messages = [
      new HumanMessage("go"),
      anthropicStyle,
      result("w"),
      edit,
      result("e"),
      failed,
      result("f", "error"),
      new HumanMessage("latest"),
    ];
    const note = (a: LongFileArg) => `(${a.value.length} chars of ${a.arg} for ${a.filePath})`;
    const out = shortenOldFileArgs(messages, 7, note)!;
    const w = out.messages[1] as AIMessage;
    expect(w.id).toBe("ai-w");
    expect(w.tool_calls![0]!.args.content).toBe("(3000 chars of content for /a.md)");
    expect((w.content as any[])[1].input.content).toBe("(3000 chars of content for /a.md)");
    expect((out.messages[3] as AIMessage).tool_calls![0]!.args).toEqual({
      file_path: "/b.md",
      old_string: "(3000 chars of old_string for /b.md)",
      new_string: "(3000 chars of new_string for /b.md)",
    });
    // The failed write never reached the file: its content stays.
    expect((out.messages[5] as AIMessage).tool_calls![0]!.args.content).toBe(big);
    expect(out.replaced.map((m) => m.id)).toEqual(["ai-w", "ai-e"]);
    expect(out.args.map((a) => [a.callId, a.arg, a.value.length])).toEqual([
      ["w", "content", 3000],
      ["e", "new_string", 3000],
      ["e", "old_string", 3000],
    ]);
  });

  it("messages in the kept tail are not touched", () => {
    const messages = [call("w", "write_file", { file_path: "/a.md", content: "z".repeat(3_000) })];
    expect(shortenOldFileArgs(messages, 0, () => "x")).toBeUndefined();
  });
});

describe("transcript paths", () => {
  it("one file per thread, and a separate one per subagent run", () => {
    const root = { configurable: { thread_id: "t-1", checkpoint_ns: "model_request:abc" } };
    const sub = {
      configurable: { thread_id: "t-1", checkpoint_ns: "tools:123|model_request:def" },
    };
    const sibling = {
      configurable: { thread_id: "t-1", checkpoint_ns: "tools:456|model_request:x" },
    };
    expect(transcriptPath("/conversation_history", root, [], undefined)).toBe(
      "/conversation_history/t-1.md",
    );
    const a = transcriptPath("/conversation_history", sub, [], "researcher");
    const b = transcriptPath("/conversation_history", sibling, [], "researcher");
    expect(a).toMatch(/^\/conversation_history\/t-1--researcher-[0-9a-f]{8}\.md$/);
    expect(a).not.toBe(b);
  });

  it("without a thread id, the file named in an earlier summary is reused", () => {
    const earlier = new HumanMessage({
      content: "summary",
      additional_kwargs: {
        lc_source: "summarization",
        delve_transcript: "/conversation_history/session-1.md",
      },
    });
    expect(transcriptPath("/conversation_history", {}, [earlier], undefined)).toBe(
      "/conversation_history/session-1.md",
    );
    expect(transcriptPath("/conversation_history", {}, [], undefined)).toMatch(
      /session-[0-9a-f]{8}\.md$/,
    );
  });
});

describe("writing a summary", () => {
  it("a transcript over the summarizer's budget is summarised in chunks, each carrying the summary so far", async () => {
    const summarizer = new ScriptedChatModel(["FIRST PART", "SECOND PART", "THIRD PART"]);
    const messages = Array.from(
      { length: 6 },
      (_, i) => new HumanMessage(`message ${i}: ${"detail ".repeat(300)}`),
    );
    const summary = await writeSummary(summarizer, messages, 700);
    expect(summarizer.calls.length).toBeGreaterThan(1);
    expect(summary).toBe(["FIRST PART", "SECOND PART", "THIRD PART"][summarizer.calls.length - 1]);
    const second = summarizer.calls[1]!.messages[0]!.text;
    expect(second).toContain("<earlier_summary>\nFIRST PART\n</earlier_summary>");
    for (const c of summarizer.calls) expect(textTokens(c.messages[0]!.text)).toBeLessThan(1_200);
  });
});

describe("context windows", () => {
  it("come from the model's profile, through bindings and lazy models", async () => {
    const profiled = { profile: { maxInputTokens: 200_000 } };
    expect(profileContextWindow(profiled)).toBe(200_000);
    expect(profileContextWindow({ bound: profiled })).toBe(200_000);
    expect(profileContextWindow({ profile: {} })).toBeUndefined();
    expect(await contextWindowAtCall({ resolve: async () => profiled })).toBe(200_000);
    const broken = {
      resolve: async () => {
        throw new Error("provider package missing");
      },
    };
    expect(await contextWindowAtCall(broken)).toBeUndefined();
  });
});
