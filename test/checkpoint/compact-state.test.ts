import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AIMessage, HumanMessage, RemoveMessage, ToolMessage } from "@langchain/core/messages";
import { MemorySaver, REMOVE_ALL_MESSAGES, type Send } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { createDeepAgent } from "delve";
import { ScriptedChatModel } from "delve/testing";
import { afterAll, describe, expect, it } from "vitest";
import {
  type FilesUpdate,
  reduceFiles,
  reduceFilesBatch,
} from "../../src/backends/file-map/files-state.js";
import { reduceMessagesBatch } from "../../src/checkpoint/messages-delta.js";
import { hasSlimToolSends } from "../../src/checkpoint/slim-tool-sends.js";

const dir = mkdtempSync(join(tmpdir(), "delve-compact-state-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const writes = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    toolCalls: [{ name: "write_file", args: { file_path: `/f${i}.txt`, content: `file ${i}` } }],
  }));

function agentOn(checkpointer: any, steps = 3) {
  return createDeepAgent({
    model: new ScriptedChatModel([...writes(steps), "done"]),
    checkpointer,
  });
}

describe("compact agent state", () => {
  it("a tool call's Send carries the call alone, not a copy of the state", async () => {
    const saver = new MemorySaver();
    // The edit only works if the tools node still sees the state (the file written before).
    const edit = {
      name: "edit_file",
      args: { file_path: "/f0.txt", old_string: "file 0", new_string: "edited" },
    };
    const agent = createDeepAgent({
      model: new ScriptedChatModel([...writes(2), { toolCalls: [edit] }, "done"]),
      checkpointer: saver,
    });
    // Fails when langchain changes the agent graph this shim patches (see slim-tool-sends.ts).
    expect(hasSlimToolSends(agent)).toBe(true);
    const config = { configurable: { thread_id: "sends" } };
    const out = await agent.invoke({ messages: [new HumanMessage("write two files")] }, config);
    expect(Object.keys(out.files).sort()).toEqual(["/f0.txt", "/f1.txt"]);
    const sends: Send[] = [];
    for await (const t of saver.list(config)) {
      for (const [, channel, value] of t.pendingWrites ?? []) {
        if (channel === "__pregel_tasks") sends.push(value as Send);
      }
    }
    const toTools = sends.filter((s) => s.node === "tools");
    expect(out.files["/f0.txt"].content).toBe("edited");
    expect(toTools).toHaveLength(3);
    // Named by id: the arguments (a whole file's content) are in the AI message already.
    for (const send of toTools) {
      expect(Object.keys(send.args).sort()).toEqual(["delve_call_by_id", "lg_tool_call"]);
      expect(Object.keys(send.args.lg_tool_call).sort()).toEqual(["id", "name"]);
    }
  });

  it("a thread reloaded from SQLite by a new process equals the run: files, messages, ids", async () => {
    const file = join(dir, "reload.db");
    const config = { configurable: { thread_id: "reload" } };
    const out = await agentOn(SqliteSaver.fromConnString(file)).invoke(
      { messages: [{ role: "user", content: "write files" }], files: { "/seed.md": "seed" } },
      config,
    );
    const fresh = agentOn(SqliteSaver.fromConnString(file));
    const state = ((await fresh.getState(config)) as any).values;
    expect(state.files).toEqual(out.files);
    expect(state.files["/seed.md"].createdAt).not.toBe("1970-01-01T00:00:00.000Z");
    const ids = out.messages.map((m: any) => m.id);
    expect(ids.every((id: unknown) => typeof id === "string")).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(state.messages.map((m: any) => m.id)).toEqual(ids);
    expect(state.messages.map((m: any) => m.content)).toEqual(
      out.messages.map((m: any) => m.content),
    );
    // A second cold read replays the same writes to the same values (no clock, no random).
    const again = ((await agentOn(SqliteSaver.fromConnString(file)).getState(config)) as any)
      .values;
    expect(again.files).toEqual(state.files);
    expect(again.messages.map((m: any) => m.id)).toEqual(ids);
  });

  it("checkpointSnapshotEvery must be a whole number", () => {
    expect(() =>
      createDeepAgent({ model: new ScriptedChatModel([]), checkpointSnapshotEvery: 0 }),
    ).toThrow(/checkpointSnapshotEvery/);
  });
});

describe("the delta reducers are batching-invariant", () => {
  const batches = () => [
    [new HumanMessage("hi"), new AIMessage("hello")],
    [new HumanMessage("hi")],
    [new RemoveMessage({ id: "keep-me" })],
    [
      new AIMessage({ content: "kept", id: "keep-me" }),
      new ToolMessage({ content: "r", tool_call_id: "c1" }),
    ],
    [new HumanMessage("hi")],
    [new RemoveMessage({ id: REMOVE_ALL_MESSAGES }), new HumanMessage("after")],
    [new HumanMessage("after")],
  ];
  const shape = (ms: any[]) => ms.map((m) => [m.getType(), m.content, m.id]);

  it("messages: one step at a time or all at once give the same list and the same ids", () => {
    const stepwise = batches().reduce((s: any[], b) => reduceMessagesBatch(s, b), []);
    const atOnce = reduceMessagesBatch([], batches().flat());
    const twoHalves = reduceMessagesBatch(
      reduceMessagesBatch([], batches().slice(0, 3).flat()),
      batches().slice(3).flat(),
    );
    expect(shape(atOnce)).toEqual(shape(stepwise));
    expect(shape(twoHalves)).toEqual(shape(stepwise));
    expect(stepwise.map((m) => m.content)).toEqual(["after", "after"]);
    expect(new Set(stepwise.map((m) => m.id)).size).toBe(2);
  });

  it("messages: a repeated message without an id is appended, not merged into the first", () => {
    const out = reduceMessagesBatch([], [[new HumanMessage("yes")], [new HumanMessage("yes")]]);
    expect(out).toHaveLength(2);
    expect(out[0]!.id).not.toBe(out[1]!.id);
  });

  it("files: a string seed replayed later keeps its timestamps (no clock read in the reducer)", () => {
    const first = reduceFiles(undefined, { "/a.md": "x" });
    const later = reduceFiles(undefined, { "/a.md": "x" });
    expect(later).toEqual(first);
    const file = { content: "y", encoding: "utf-8" as const, createdAt: "t1", modifiedAt: "t1" };
    const updates: FilesUpdate[] = [
      { "/a.md": file },
      { "/b.md": "b" },
      { "/a.md": null },
      { "/a.md": "z" },
    ];
    const stepwise = updates.reduce<Record<string, any>>((s, u) => reduceFilesBatch(s, [u]), {});
    expect(reduceFilesBatch({}, updates)).toEqual(stepwise);
  });
});
