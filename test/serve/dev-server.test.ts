// The ticket desk served by LangGraph's own dev server (`langgraphjs dev` from
// @langchain/langgraph-cli, in serve/), driven over HTTP with @langchain/langgraph-sdk:
// what a user of the served agent relies on, offline, on the scripted model.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STOP_DEADLINE_MS, serveInstalled } from "./server-process.js";
import { type DeskDevServer, DESK_GRAPH as GRAPH, ticketDeskDev } from "./ticket-desk-dev.js";

const installed = serveInstalled();

const say = (content: string) => ({ messages: [{ role: "user", content }] });
const call = (tool: string, args: Record<string, unknown>) =>
  `call ${tool} ${JSON.stringify(args)}`;
const filesOf = (values: any): Record<string, { content: string }> => values?.files ?? {};
const lastText = (values: any): string => {
  const last = values?.messages?.at(-1);
  return typeof last?.content === "string" ? last.content : JSON.stringify(last?.content);
};

describe.skipIf(!installed)("the ticket desk on langgraphjs dev", () => {
  let desk: DeskDevServer;
  const alice = () => desk.client("token-alice");
  const bob = () => desk.client("token-bob");

  beforeAll(async () => {
    desk = await ticketDeskDev();
    await desk.start();
  }, 120_000);

  afterAll(async () => {
    await desk?.dispose();
  }, STOP_DEADLINE_MS + 30_000);

  // Shared across the tests below, in order: one thread with a file, edited under approval.
  let threadId = "";
  let afterWrite = "";

  it("runs a file write and shows the file in the thread state", async () => {
    const thread = await alice().threads.create();
    threadId = thread.thread_id;
    await alice().runs.wait(threadId, GRAPH, {
      input: say(call("write_file", { file_path: "/notes.md", content: "alpha\n" })),
    });
    const state = await alice().threads.getState(threadId);
    expect(filesOf(state.values)["/notes.md"]?.content).toBe("alpha\n");
    expect(lastText(state.values)).toContain("write_file:");
    afterWrite = state.checkpoint.checkpoint_id!;
  });

  it("streams the seed task: MCP lookups, then the brief, then the answer", async () => {
    const thread = await alice().threads.create();
    const events: Array<{ event: string; data: any }> = [];
    for await (const chunk of alice().runs.stream(thread.thread_id, GRAPH, {
      input: say("Look up T-1001 and T-1003 and the unassigned queue; write brief.md."),
      streamMode: ["updates", "values"],
    })) {
      events.push(chunk as any);
    }
    const updates = events.filter((e) => e.event === "updates");
    // The model node, the tool node and the model again arrive as separate events.
    expect(updates.length).toBeGreaterThanOrEqual(4);
    const last = events.filter((e) => e.event === "values").at(-1)!.data;
    const brief = filesOf(last)["/brief.md"]?.content ?? "";
    expect(brief).toContain("T-1001");
    expect(brief).toContain("T-1003");
    expect(brief).toMatch(/Unassigned tickets: \d+/);
    expect(lastText(last)).toContain("/brief.md");
  });

  it("pauses edit_file for approval; approve applies the edit", async () => {
    const edit = call("edit_file", {
      file_path: "/notes.md",
      old_string: "alpha",
      new_string: "beta",
    });
    await alice().runs.wait(threadId, GRAPH, { input: say(edit) });
    let state = await alice().threads.getState(threadId);
    const request = (state.tasks as any[]).flatMap((t) => t.interrupts ?? [])[0]?.value;
    expect(request?.actionRequests?.[0]?.name).toBe("edit_file");
    expect(filesOf(state.values)["/notes.md"]?.content).toBe("alpha\n");
    await alice().runs.wait(threadId, GRAPH, {
      command: { resume: { decisions: [{ type: "approve" }] } },
    });
    state = await alice().threads.getState(threadId);
    expect(state.next).toEqual([]);
    expect(filesOf(state.values)["/notes.md"]?.content).toBe("beta\n");
  });

  it("reject leaves the file as it was and tells the model why", async () => {
    const edit = call("edit_file", {
      file_path: "/notes.md",
      old_string: "beta",
      new_string: "gamma",
    });
    await alice().runs.wait(threadId, GRAPH, { input: say(edit) });
    await alice().runs.wait(threadId, GRAPH, {
      command: { resume: { decisions: [{ type: "reject", message: "keep beta" }] } },
    });
    const state = await alice().threads.getState(threadId);
    expect(filesOf(state.values)["/notes.md"]?.content).toBe("beta\n");
    const tool = (state.values as any).messages.filter((m: any) => m.type === "tool").at(-1);
    expect(JSON.stringify(tool.content)).toContain("keep beta");
  });

  it("lists the thread history and forks from the checkpoint before the edits", async () => {
    const history = await alice().threads.getHistory(threadId, { limit: 100 });
    const ids = history.map((h) => h.checkpoint.checkpoint_id);
    expect(ids).toContain(afterWrite);
    const old = history.find((h) => h.checkpoint.checkpoint_id === afterWrite)!;
    expect(filesOf(old.values)["/notes.md"]?.content).toBe("alpha\n");

    await alice().runs.wait(threadId, GRAPH, {
      input: say(call("write_file", { file_path: "/fork.md", content: "fork\n" })),
      checkpointId: afterWrite,
    });
    const forked = await alice().threads.getState(threadId);
    // The fork starts from the old files: the approved edit is not in this branch.
    expect(filesOf(forked.values)["/notes.md"]?.content).toBe("alpha\n");
    expect(filesOf(forked.values)["/fork.md"]?.content).toBe("fork\n");
    expect(forked.parent_checkpoint).toBeDefined();
    const after = await alice().threads.getHistory(threadId, { limit: 200 });
    expect(after.length).toBeGreaterThan(history.length);
  });

  it("keeps a user's /user/ files across threads, and out of other users' reach", async () => {
    const first = await alice().threads.create();
    await alice().runs.wait(first.thread_id, GRAPH, {
      input: say(call("write_file", { file_path: "/user/profile.md", content: "alice's notes" })),
    });
    const read = say(call("read_file", { file_path: "/user/profile.md" }));
    const second = await alice().threads.create();
    await alice().runs.wait(second.thread_id, GRAPH, { input: read });
    const mine = await alice().threads.getState(second.thread_id);
    expect(lastText(mine.values)).toContain("alice's notes");
    // Store files are not thread state: the thread's `files` does not hold them.
    expect(filesOf(mine.values)["/user/profile.md"]).toBeUndefined();

    const other = await bob().threads.create();
    await bob().runs.wait(other.thread_id, GRAPH, { input: read });
    const theirs = await bob().threads.getState(other.thread_id);
    expect(lastText(theirs.values)).not.toContain("alice's notes");
    expect(lastText(theirs.values)).toMatch(/not found|does not exist|no such/i);
    // Nor through the API: no token, no access; alice's thread and store are closed to bob.
    const anonymous = await fetch(`${desk.url()}/threads`, { method: "POST", body: "{}" });
    expect(anonymous.status).toBe(401);
    await expect(bob().threads.get(first.thread_id)).rejects.toThrow(/404|not found/i);
    await expect(
      bob().store.getItem(["ticket-desk", "users", "alice", "files"], "/user/profile.md"),
    ).rejects.toThrow(/403/);
    // The served graph's assistant is shared by all users.
    expect((await bob().assistants.search()).map((a) => a.graph_id)).toContain(GRAPH);
    const item = await alice().store.getItem(
      ["ticket-desk", "users", "alice", "files"],
      "/profile.md",
    );
    expect((item?.value as any)?.content).toBe("alice's notes");
  });

  it(
    "keeps threads, history and user files across a server restart",
    async () => {
      const before = await alice().threads.getState(threadId);
      const historyBefore = await alice().threads.getHistory(threadId, { limit: 200 });
      await desk.stop();
      // It exited on its own after flushing its storage (stop() waits for that, however long).
      expect(desk.output()).toContain("Flushing to persistent storage");
      await desk.start();
      // A MemorySaver (the graph's own) would have lost the thread: the server's replaced it.
      const after = await alice().threads.getState(threadId);
      expect(after.checkpoint.checkpoint_id).toBe(before.checkpoint.checkpoint_id);
      expect(filesOf(after.values)).toEqual(filesOf(before.values));
      const historyAfter = await alice().threads.getHistory(threadId, { limit: 200 });
      expect(historyAfter.map((h) => h.checkpoint.checkpoint_id)).toEqual(
        historyBefore.map((h) => h.checkpoint.checkpoint_id),
      );
      // The thread goes on after the restart, and the store survived too.
      const fresh = await alice().threads.create();
      await alice().runs.wait(fresh.thread_id, GRAPH, {
        input: say(call("read_file", { file_path: "/user/profile.md" })),
      });
      expect(lastText((await alice().threads.getState(fresh.thread_id)).values)).toContain(
        "alice's notes",
      );
    },
    STOP_DEADLINE_MS + 120_000,
  );
});
