import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import {
  compactNow,
  costReport,
  listTurns,
  openSession,
  previewRewind,
  readHistory,
  rewind,
  stepsOf,
  threadDiff,
} from "../../src/run/index.js";
import {
  edit,
  harnessPerFile,
  MODEL,
  open,
  read,
  requestLines,
  send,
  write,
} from "./session-ops-harness.js";

// Rewind and the thread diff over a real thread: the real engine, its SQLite checkpoints, the
// real ChatOpenAI on the local fake, real files on disk.

vi.setConfig({ testTimeout: 120_000 });

const h = harnessPerFile();

const TURN_1 = {
  task: "first task",
  replies: [
    { toolCalls: [write("draft.txt", "v1\n"), write("mine.txt", "agent 1\n")] },
    { text: "first done" },
  ],
};
const TURN_2 = {
  task: "second task",
  replies: [
    {
      toolCalls: [
        write("draft.txt", "v2\n"),
        edit("notes.txt", "one", "two"),
        write("new.txt", "created in turn 2\n"),
        write("mine.txt", "agent 2\n"),
      ],
    },
    { text: "second done" },
  ],
};

describe("rewind", () => {
  it("restores a written and an edited file, deletes a created one, leaves a user-changed file as a conflict, keeps the spent tokens, and the next turn's request lacks the undone messages", async () => {
    const ws = h.workspace({ "notes.txt": "one\n", "untouched.txt": "the user's\n" });
    const session = await open(h, ws);
    try {
      await send(h, session, TURN_1);
      await send(h, session, TURN_2);
      fs.writeFileSync(path.join(ws, "mine.txt"), "changed by the user\n");
      fs.writeFileSync(path.join(ws, "untouched.txt"), "the user's, edited\n");

      const turns = await listTurns(session);
      expect(turns.map((t) => [t.turn, t.task])).toEqual([
        [1, "first task"],
        [2, "second task"],
      ]);

      const plan = await previewRewind(session, 2);
      expect(plan.files.map((f) => [f.path, f.action, f.conflict])).toEqual([
        ["draft.txt", "restore", undefined],
        ["mine.txt", "restore", "changed_on_disk"],
        ["new.txt", "delete", undefined],
        ["notes.txt", "restore", undefined],
      ]);
      expect(plan.warnings).toEqual([]);
      expect(plan.dropped[0]).toEqual({ role: "human", text: "second task" });
      expect(plan.dropped.at(-1)).toEqual({ role: "ai", text: "second done" });
      expect(plan.text).toContain("-v2\n+v1");
      expect(plan.text).toContain("-two\n+one");
      expect(plan.text).toContain("-created in turn 2");
      // A preview changes nothing.
      expect(read(ws, "new.txt")).toBe("created in turn 2\n");

      const spent = (await costReport(session)).total;
      const done = await rewind(session, 2);
      // The undone turns' tokens were spent: they stay counted.
      expect((await costReport(session)).total).toEqual(spent);
      expect(done.restored.sort()).toEqual(["draft.txt", "notes.txt"]);
      expect(done.deleted).toEqual(["new.txt"]);
      expect(done.conflicts.map((c) => c.path)).toEqual(["mine.txt"]);
      expect(read(ws, "draft.txt")).toBe("v1\n");
      expect(read(ws, "notes.txt")).toBe("one\n");
      expect(read(ws, "new.txt")).toBeUndefined();
      expect(read(ws, "mine.txt")).toBe("changed by the user\n");
      expect(read(ws, "untouched.txt")).toBe("the user's, edited\n");
      expect((await listTurns(session)).map((t) => t.task)).toEqual(["first task"]);

      const requests = await send(h, session, { task: "third task", replies: [{ text: "ok" }] });
      const lines = requestLines(requests[0]);
      expect(lines).toContain("user: first task");
      expect(lines).toContain("assistant: first done");
      expect(lines.at(-1)).toBe("user: third task");
      expect(lines.join("\n")).not.toContain("second");
      // The viewer's reading of the thread follows the rewound line too.
      const steps = stepsOf(await readHistory(session.history()), MODEL);
      const texts = steps.flatMap((st) => st.messages.map((m) => m.text));
      expect(texts).toContain("third task");
      expect(texts.join("\n")).not.toContain("second");
    } finally {
      await session.close();
    }

    // Another process continues the rewound thread: the same id, from the rewound state.
    const again = await open(h, ws, session.thread.id);
    try {
      expect((await listTurns(again)).map((t) => t.task)).toEqual(["first task", "third task"]);
    } finally {
      await again.close();
    }
  });

  it("with force, a user-changed file is overwritten; rewinding the first turn empties the conversation and deletes what it created", async () => {
    const ws = h.workspace({ "notes.txt": "one\n" });
    const session = await open(h, ws);
    try {
      await send(h, session, TURN_1);
      await send(h, session, TURN_2);
      fs.writeFileSync(path.join(ws, "mine.txt"), "changed by the user\n");
      const forced = await rewind(session, 2, { force: true });
      expect(forced.conflicts).toEqual([]);
      expect(read(ws, "mine.txt")).toBe("agent 1\n");

      await expect(rewind(session, 2)).rejects.toThrow(/no turn 2 in this thread: it has turn 1/);
      const first = await rewind(session, 1);
      expect(first.deleted.sort()).toEqual(["draft.txt", "mine.txt"]);
      expect(read(ws, "notes.txt")).toBe("one\n");
      expect(await session.messages()).toEqual([]);
      expect(await listTurns(session)).toEqual([]);

      const requests = await send(h, session, { task: "fresh start", replies: [{ text: "ok" }] });
      expect(requestLines(requests[0]).filter((l) => !l.startsWith("system"))).toEqual([
        "user: fresh start",
      ]);
    } finally {
      await session.close();
    }
  });
});

describe("rewind of an edited file the user changed since", () => {
  it("keeps the user's change elsewhere in the file and undoes the agent's edit; a change to the edited text itself is a conflict", async () => {
    const ws = h.workspace({
      "app.txt": "name: old\ncolour: red\n",
      "other.txt": "size: small\n",
    });
    const session = await open(h, ws);
    try {
      await send(h, session, { task: "first", replies: [{ text: "ok" }] });
      await send(h, session, {
        task: "rename",
        replies: [
          {
            toolCalls: [
              edit("app.txt", "name: old", "name: new"),
              edit("other.txt", "small", "big"),
            ],
          },
          { text: "ok" },
        ],
      });
      fs.writeFileSync(path.join(ws, "app.txt"), "name: new\ncolour: blue\n");
      fs.writeFileSync(path.join(ws, "other.txt"), "size: huge\n");
      const plan = await previewRewind(session, 2);
      expect(plan.source).toBe("snapshots");
      expect(plan.files.map((f) => [f.path, f.conflict, f.merged])).toEqual([
        ["app.txt", undefined, true],
        ["other.txt", "changed_on_disk", undefined],
      ]);
      expect(plan.text).toContain("app.txt  (changed on disk since: those changes are kept)");
      const done = await rewind(session, 2);
      expect(done.restored).toEqual(["app.txt"]);
      expect(read(ws, "app.txt")).toBe("name: old\ncolour: blue\n");
      expect(done.conflicts.map((c) => [c.path, c.conflict])).toEqual([
        ["other.txt", "changed_on_disk"],
      ]);
      expect(read(ws, "other.txt")).toBe("size: huge\n");
    } finally {
      await session.close();
    }
  });
});

describe("rewind after a compaction", () => {
  it("still finds the files of turns whose messages were summarized away", async () => {
    const ws = h.workspace();
    const session = await open(h, ws);
    try {
      await send(h, session, {
        task: "first",
        replies: [{ toolCalls: [write("a.txt", "a\n")] }, { text: "ok" }],
      });
      await send(h, session, {
        task: "second",
        replies: [{ toolCalls: [write("b.txt", "b\n")] }, { text: "ok" }],
      });
      h.openai.script([{ text: "summary of a and b" }]);
      expect((await compactNow(session)).compacted).toBe(true);
      await send(h, session, {
        task: "third",
        replies: [{ toolCalls: [write("c.txt", "c\n")] }, { text: "ok" }],
      });
      expect((await listTurns(session)).map((t) => t.task)).toEqual(["first", "second", "third"]);
      const done = await rewind(session, 2);
      expect(done.deleted.sort()).toEqual(["b.txt", "c.txt"]);
      expect(read(ws, "a.txt")).toBe("a\n");
      expect((await session.messages()).map((m) => m.text)).toEqual([
        "first",
        expect.stringContaining("write_file"),
        "Wrote /a.txt (1 line).",
        "ok",
      ]);
    } finally {
      await session.close();
    }
  });
});

describe("rewind of a thread run before workspace snapshots", () => {
  it("works from the file calls, names the commands and subagents it cannot undo, and the rewound thread is the one -c continues", async () => {
    const ws = h.workspace();
    const session = await open(h, ws);
    try {
      await send(h, session, { task: "first", replies: [{ text: "ok" }] });
      await send(h, session, {
        task: "second",
        replies: [
          {
            toolCalls: [
              { name: "execute", args: { command: "echo made > out.txt" } },
              { name: "task", args: { description: "hi", subagent_type: "general-purpose" } },
            ],
          },
          { text: "sub done" },
          { text: "ok" },
        ],
      });
      // A thread from before snapshots has no log of them.
      fs.rmSync(path.join(ws, ".delve", "snapshots", "threads"), { recursive: true });
      const other = await open(h, ws);
      await other.close();
      const plan = await previewRewind(session, 2);
      expect(plan.source).toBe("messages");
      expect(plan.warnings).toEqual([
        "1 command ran with execute: what they changed is not undone.",
        "1 subagent task ran: files subagents changed are not undone.",
      ]);
      expect(plan.text).toContain("note: 1 command ran with execute");
      await rewind(session, 2);
      expect(read(ws, "out.txt")).toBe("made\n");
    } finally {
      await session.close();
    }
    const latest = await openSession({ workspace: ws, continueLatest: true, readOnly: true });
    try {
      expect(latest.thread.id).toBe(session.thread.id);
    } finally {
      await latest.close();
    }
  });
});

describe("threadDiff", () => {
  it("shows every file the thread changed, from before its first change to now", async () => {
    const ws = h.workspace({ "notes.txt": "one\n" });
    const session = await open(h, ws);
    try {
      await send(h, session, TURN_1);
      await send(h, session, TURN_2);
      const diff = await threadDiff(session);
      expect(diff.files.map((f) => [f.path, f.op])).toEqual([
        ["draft.txt", "create"],
        ["mine.txt", "create"],
        ["new.txt", "create"],
        ["notes.txt", "edit"],
      ]);
      expect(diff.files.find((f) => f.path === "draft.txt")!.diff).toContain("+v2");
      expect(diff.text).toContain("-one\n+two");
    } finally {
      await session.close();
    }
  });
});
