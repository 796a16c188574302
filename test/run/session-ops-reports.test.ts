import { describe, expect, it, vi } from "vitest";
import { inspectSurface } from "../../src/index.js";
import {
  compactNow,
  contextReport,
  costReport,
  listTurns,
  toolsReport,
} from "../../src/run/index.js";
import { harnessPerFile, MODEL, open, requestLines, send, write } from "./session-ops-harness.js";

// The context, tools and cost reports and `/compact` over a real thread: the real engine and
// its checkpoints, the real ChatOpenAI on the local fake (10 tokens in, 5 out per call).

vi.setConfig({ testTimeout: 120_000 });

const h = harnessPerFile();

const READ_AND_DELEGATE = {
  task: "look at the readme and ask a helper",
  replies: [
    { toolCalls: [{ name: "read_file", args: { file_path: "/README.md" } }] },
    {
      toolCalls: [
        { name: "task", args: { description: "say hi", subagent_type: "general-purpose" } },
      ],
    },
    { text: "the helper says hi" },
    { text: "all done" },
  ],
};

describe("contextReport", () => {
  it("splits the window into system prompt, tools, messages and files, with the surface inspector's figures", async () => {
    const readme = `# Project\n\n${"A line of the readme that fills the window.\n".repeat(40)}`;
    const ws = h.workspace({ "README.md": readme });
    const session = await open(h, ws);
    try {
      await send(h, session, READ_AND_DELEGATE);
      const report = await contextReport(session);
      const surface = await inspectSurface(session.agent);
      expect(report.systemPrompt.chars).toBe(surface.systemPromptChars);
      expect(report.tools.map((t) => t.name).sort()).toEqual([...surface.visible].sort());
      expect(report.tools.reduce((s, t) => s + t.chars, 0)).toBe(surface.totalChars);
      expect(report.tools.reduce((s, t) => s + t.tokens, 0)).toBe(surface.totalTokens);
      const readmePart = report.files.find((f) => f.name === "README.md");
      expect(readmePart!.chars).toBeGreaterThan(readme.length);
      expect(report.messages.count).toBe((await session.messages()).length);
      const parts = [report.systemPrompt, ...report.tools, report.messages, ...report.files];
      expect(report.total).toEqual({
        chars: parts.reduce((s, p) => s + p.chars, 0),
        tokens: parts.reduce((s, p) => s + p.tokens, 0),
      });
      // The fake's model has no profile: the window is the one summarization assumes.
      expect(report).toMatchObject({ window: 128_000, windowAssumed: true });
    } finally {
      await session.close();
    }
  });
});

describe("toolsReport", () => {
  it("lists the visible tools with their sizes and the hidden ones with a reason", async () => {
    const ws = h.workspace();
    const session = await open(h, ws);
    try {
      const report = await toolsReport(session);
      const surface = await inspectSurface(session.agent);
      expect(report.visible.map((t) => t.name)).toEqual(surface.visible);
      expect(report.visible.map((t) => t.name)).toEqual(
        expect.arrayContaining(["read_file", "write_file", "edit_file", "execute", "task"]),
      );
      expect(report.totalChars).toBe(surface.totalChars);
      expect(report.hidden).toEqual(surface.hidden);
      for (const h of report.hidden) expect(h.reason).not.toBe("");
      expect(report.deferred).toEqual([]);
    } finally {
      await session.close();
    }
  });
});

describe("costReport", () => {
  it("splits tokens and dollars per model and per subagent", async () => {
    const ws = h.workspace({ "README.md": "# hi\n" });
    const session = await open(h, ws);
    try {
      await send(h, session, READ_AND_DELEGATE);
      const cost = await costReport(session);
      expect(cost.model).toBe(MODEL);
      expect(cost.byAgent.main).toMatchObject({ calls: 3, input: 30, output: 15 });
      expect(cost.byAgent["general-purpose"]).toMatchObject({ calls: 1, input: 10, output: 5 });
      // 1 USD per million input tokens, 2 per million output (the session's prices).
      expect(cost.byAgent["general-purpose"]!.costUsd).toBeCloseTo((10 * 1 + 5 * 2) / 1e6, 12);
      expect(cost.total).toMatchObject({ calls: 4, input: 40, output: 20 });
      expect(cost.total.costUsd).toBeCloseTo((40 + 40) / 1e6, 12);
      expect(Object.keys(cost.byModel)).toHaveLength(1);
      expect(cost.unpricedModels).toEqual([]);
    } finally {
      await session.close();
    }
  });
});

describe("compactNow", () => {
  it("summarizes the older messages into the thread, which then runs on from the summary", async () => {
    const ws = h.workspace();
    const session = await open(h, ws);
    try {
      await send(h, session, {
        task: "write a file",
        replies: [{ toolCalls: [write("a.txt", "alpha\n".repeat(200))] }, { text: "wrote it" }],
      });
      await send(h, session, { task: "and now?", replies: [{ text: "nothing else" }] });
      const seen = h.openai.accepted().length;
      h.openai.script([{ text: "SUMMARY: the user had a.txt written; nothing else to do." }]);
      const result = await compactNow(session);
      expect(result.compacted).toBe(true);
      expect(result.after.messages).toBeLessThan(result.before.messages);
      expect(result.after.tokens).toBeLessThan(result.before.tokens);
      expect(result.summarized).toBe(result.before.messages - 2);
      expect(result.transcript).toBe(`/conversation_history/${session.thread.id}.md`);
      // The summarizer was asked once, with the conversation in its request.
      const asked = requestLines(h.openai.accepted()[seen]).join("\n");
      expect(asked).toContain("write a file");

      const messages = await session.messages();
      expect(messages).toHaveLength(3);
      expect(messages[0]!.text).toContain("SUMMARY: the user had a.txt written");
      expect(messages.slice(1).map((m) => m.text)).toEqual(["and now?", "nothing else"]);
      const state = await session.agent.getState(session.config);
      expect(Object.keys(state.values.files)).toContain(result.transcript);
      expect((await costReport(session)).byAgent.summarizer).toMatchObject({ calls: 1 });

      const requests = await send(h, session, { task: "continue", replies: [{ text: "ok" }] });
      const lines = requestLines(requests[0]).join("\n");
      expect(lines).toContain("SUMMARY: the user had a.txt written");
      expect(lines).not.toContain("alpha");
      expect((await listTurns(session)).map((t) => t.task)).toContain("continue");
    } finally {
      await session.close();
    }
  });

  it("leaves a thread with nothing old enough to summarize unchanged", async () => {
    const ws = h.workspace();
    const session = await open(h, ws);
    try {
      await send(h, session, { task: "hi", replies: [{ text: "hello" }] });
      const before = h.openai.accepted().length;
      const result = await compactNow(session);
      expect(result).toMatchObject({ compacted: false, summarized: 0 });
      expect(result.after).toEqual(result.before);
      expect(h.openai.accepted().length).toBe(before);
      expect(await session.messages()).toHaveLength(2);
    } finally {
      await session.close();
    }
  });
});
