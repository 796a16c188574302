/**
 * Harness files (evicted results, transcripts, kept arguments) against a hostile model and a
 * shared `harnessBackend`: a reused tool-call id, parallel calls with one id, or another
 * thread must never overwrite or read another's content, and a note never names a file that
 * does not hold what it says.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { InMemoryStore, MemorySaver } from "@langchain/langgraph";
import { createDeepAgent, FilesystemBackend, InMemoryBackend, StoreBackend } from "delve";
import { ScriptedChatModel } from "delve/testing";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "delve-harness-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const user = (content: string) => ({ messages: [{ role: "user" as const, content }] });
const thread = (id: string) => ({ configurable: { thread_id: id } });
// About 33k tokens: always evicted at the default 20k limit.
const page = (marker: string) =>
  Array.from({ length: 2_000 }, (_, i) => `${marker} line ${i}: ${"x".repeat(40)}`).join("\n");
const fetchPage = tool(async ({ n }: { n: number }) => page(`PAGE-${n}`), {
  name: "fetch_page",
  description: "Fetch a page.",
  schema: z.object({ n: z.number() }),
});
const toolTexts = (messages: BaseMessage[]) =>
  messages.filter((m) => ToolMessage.isInstance(m)).map((m) => m.text);
const evictedPathIn = (text: string) => /\/large_tool_results\/[\w-]+/.exec(text)?.[0];

describe("a reused tool-call id never overwrites an evicted result", () => {
  it("call_0 in two turns: both results stay readable, each at the path its notice names", async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "fetch_page", args: { n: 1 }, id: "call_0" }] },
      { toolCalls: [{ name: "fetch_page", args: { n: 2 }, id: "call_0" }] },
      "done",
    ]);
    const out = await createDeepAgent({ model, tools: [fetchPage] }).invoke(user("go"));
    const [first, second] = toolTexts(out.messages).map(evictedPathIn);
    expect(first).toBeDefined();
    expect(first).not.toBe(second);
    expect(out.files[first!].content).toContain("PAGE-1 line 0:");
    expect(out.files[second!].content).toContain("PAGE-2 line 0:");
  });

  it("two parallel calls sharing call_0 in one message: both results are kept", async () => {
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          { name: "fetch_page", args: { n: 3 }, id: "call_0" },
          { name: "fetch_page", args: { n: 4 }, id: "call_0" },
        ],
      },
      "done",
    ]);
    const out = await createDeepAgent({ model, tools: [fetchPage] }).invoke(user("go"));
    const evicted = Object.keys(out.files).filter((p) => p.startsWith("/large_tool_results/"));
    const contents = evicted.map((p) => out.files[p].content.slice(0, 6)).sort();
    expect(contents).toEqual(["PAGE-3", "PAGE-4"]);
  });
});

/** Thread `a` evicts a result; thread `b`, on the same shared harness backend, hunts for it. */
async function hunt(harnessBackend: any, a: string, b: string) {
  const script = new ScriptedChatModel([
    { toolCalls: [{ name: "fetch_page", args: { n: 7 }, id: "call_0" }] },
    "done",
  ]);
  const agent = (model: ScriptedChatModel) =>
    createDeepAgent({ model, tools: [fetchPage], harnessBackend, checkpointer: new MemorySaver() });
  const first = await agent(script).invoke(user("fetch"), thread(a));
  const evicted = evictedPathIn(toolTexts(first.messages)[0]!)!;
  const thief = new ScriptedChatModel([
    {
      toolCalls: [
        { name: "read_file", args: { file_path: evicted }, id: "r" },
        { name: "ls", args: { path: "/large_tool_results" }, id: "l" },
        { name: "grep", args: { pattern: "PAGE-7", path: "/" }, id: "g" },
        { name: "glob", args: { pattern: "**", path: "/large_tool_results" }, id: "gl" },
        // Overwriting the path a's notice names must not touch a's file.
        { name: "write_file", args: { file_path: evicted, content: "forged" }, id: "w" },
      ],
    },
    "done",
  ]);
  const second = await agent(thief).invoke(user("steal"), thread(b));
  const reread = new ScriptedChatModel([
    { toolCalls: [{ name: "read_file", args: { file_path: evicted, limit: 1 }, id: "r2" }] },
    "done",
  ]);
  const again = await agent(reread).invoke(user("again"), thread(a));
  return { evicted, stolen: toolTexts(second.messages), own: toolTexts(again.messages).at(-1)! };
}

describe("threads sharing one harnessBackend are kept apart", () => {
  const backends = {
    InMemoryBackend: () => new InMemoryBackend(),
    FilesystemBackend: () => new FilesystemBackend({ rootDir: fs.mkdtempSync(`${tmp}/fs-`) }),
    "StoreBackend (one namespace for all)": () =>
      new StoreBackend({ namespace: () => ["harness"], store: new InMemoryStore() }),
  };
  for (const [name, make] of Object.entries(backends)) {
    it(`${name}: another thread cannot read, list, grep or overwrite a thread's evicted result`, async () => {
      const shared = make();
      const { evicted, stolen, own } = await hunt(shared, "team/a", "team_a");
      for (const text of stolen.slice(0, 4)) expect(text).not.toContain("PAGE-7");
      expect(stolen[0]).toMatch(/not found|does not exist/i);
      expect(own).toContain("PAGE-7 line 0:");
      // On the shared backend, each thread has its own folder.
      const all = (await shared.glob("**", { path: "/" })).files!.map((f: any) => f.path);
      expect(all.some((p: string) => p.startsWith("/threads/team_a/large_tool_results/"))).toBe(
        true,
      );
      expect(all.some((p: string) => /^\/threads\/team_a-[0-9a-f]{12}\//.test(p))).toBe(true);
      expect(all.every((p: string) => p.startsWith("/threads/"))).toBe(true);
      expect(evicted.startsWith("/large_tool_results/")).toBe(true);
    });
  }

  it("transcripts: another thread cannot read a thread's conversation history", async () => {
    const shared = new InMemoryBackend();
    const words = (n: number) => "lorem ipsum ".repeat(n);
    const talk = () =>
      new ScriptedChatModel(Array.from({ length: 6 }, (_, i) => `reply ${i} ${words(300)}`));
    const agent = (model: ScriptedChatModel) =>
      createDeepAgent({
        model,
        harnessBackend: shared,
        checkpointer: new MemorySaver(),
        summarization: {
          model: new ScriptedChatModel(Array.from({ length: 6 }, () => "SUMMARY of secrets")),
          contextWindow: 4_000,
          keep: { messages: 2 },
        },
      });
    const chatty = agent(talk());
    for (let i = 0; i < 4; i++) await chatty.invoke(user(`SECRET-${i} ${words(200)}`), thread("x"));
    const files = (await shared.glob("**", { path: "/" })).files!.map((f) => f.path);
    expect(files).toContain("/threads/x/conversation_history/x.md");
    const thief = new ScriptedChatModel([
      {
        toolCalls: [
          { name: "read_file", args: { file_path: "/conversation_history/x.md" }, id: "r" },
          { name: "grep", args: { pattern: "SECRET-0", path: "/" }, id: "g" },
        ],
      },
      "done",
    ]);
    const out = await agent(thief).invoke(user("steal"), thread("y"));
    for (const text of toolTexts(out.messages)) expect(text).not.toContain("SECRET-0");
  });
});

describe("summarization never claims a file holds what it no longer holds", () => {
  it("a shortened write_file argument names a file that holds it, after /draft.md was overwritten", async () => {
    const draft = `FIRST-DRAFT ${"alpha ".repeat(6_000)}`;
    const harness = new FilesystemBackend({ rootDir: fs.mkdtempSync(`${tmp}/kept-`) });
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "write_file", args: { file_path: "/draft.md", content: draft } }] },
      { toolCalls: [{ name: "write_file", args: { file_path: "/draft.md", content: "v2" } }] },
      { toolCalls: [{ name: "read_file", args: { file_path: "/draft.md" } }] },
      (messages) => {
        const shortened = (messages[1] as AIMessage).tool_calls![0]!.args.content as string;
        return { toolCalls: [{ name: "read_file", args: { file_path: keptPath(shortened) } }] };
      },
      "done",
    ]);
    const out = await createDeepAgent({
      model,
      harnessBackend: harness,
      checkpointer: new MemorySaver(),
      summarization: {
        model: new ScriptedChatModel([]),
        contextWindow: 9_000,
        keep: { messages: 3 },
      },
    }).invoke(user("draft it"), thread("draft"));
    const note = (out.messages[1] as AIMessage).tool_calls![0]!.args.content as string;
    expect(note).not.toMatch(/saved in \/draft\.md/);
    expect(note).toMatch(/^\(36012 chars; full text in \/conversation_history\/draft\.args\//);
    expect(toolTexts(out.messages).at(-1)).toContain("FIRST-DRAFT alpha alpha");
    const onDisk = await harness.read(`/threads/draft${keptPath(note)}`);
    expect(onDisk.lines?.[0]).toContain("FIRST-DRAFT");
  });
});

function keptPath(note: string): string {
  return note.slice(note.indexOf("/conversation_history/"), -1);
}
