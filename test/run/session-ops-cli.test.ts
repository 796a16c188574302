import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import {
  edit,
  harnessPerFile,
  open,
  read,
  requestLines,
  send,
  write,
} from "./session-ops-harness.js";

// The headless session operations end to end: threads made with `delve run`, then `delve
// threads turns|rewind|diff|cost|compact` and `delve context`, all real child processes of
// the real binary on the local fake provider. The first case makes its thread with `delve run`;
// the others make theirs with the engine in this process (the commands are what they test).

vi.setConfig({ testTimeout: 180_000 });

const h = harnessPerFile();

const RUN = ["--model", "openai:delve-unpriced-model", "--approval", "yolo", "--sandbox", "none"];

// A thread of two turns: the first creates a.txt, the second edits notes.txt and creates b.txt.
async function twoTurns(ws: string): Promise<string> {
  h.openai.script([
    { toolCalls: [write("a.txt", "first\n")] },
    { text: "first done" },
    { toolCalls: [edit("notes.txt", "one", "two"), write("b.txt", "second\n")] },
    { text: "second done" },
  ]);
  const first = await h.delve(ws, ["run", "make a", ...RUN, "--output", "json"]);
  expect(first.code, first.stderr).toBe(0);
  const id = JSON.parse(first.stdout).thread_id;
  const second = await h.delve(ws, ["run", "-c", "change notes", ...RUN]);
  expect(second.code, second.stderr).toBe(0);
  return id;
}

// The same two turns, run by the engine in this process.
async function twoTurnsInProcess(ws: string): Promise<string> {
  const session = await open(h, ws);
  try {
    await send(h, session, {
      task: "make a",
      replies: [{ toolCalls: [write("a.txt", "first\n")] }, { text: "first done" }],
    });
    await send(h, session, {
      task: "change notes",
      replies: [
        { toolCalls: [edit("notes.txt", "one", "two"), write("b.txt", "second\n")] },
        { text: "second done" },
      ],
    });
    return session.thread.id;
  } finally {
    await session.close();
  }
}

describe("delve threads rewind|turns|diff", () => {
  it("lists the turns, previews and rewinds to before turn 2, and delve run -c continues from there", async () => {
    const ws = h.workspace({ "notes.txt": "one\n" });
    const id = await twoTurns(ws);

    // Read-only, so at once.
    const [turns, diff, dry] = await Promise.all([
      h.delve(ws, ["threads", "turns", id]),
      h.delve(ws, ["threads", "diff", id]),
      h.delve(ws, ["threads", "rewind", id, "--to", "2", "--dry-run"]),
    ]);
    expect(turns.code, turns.stderr).toBe(0);
    expect(turns.stdout).toMatch(/^1 {2}\S+ {2}make a\n2 {2}\S+ {2}change notes\n$/);

    expect(diff.stdout).toContain("-one\n+two");
    expect(diff.stdout).toContain("+second");

    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('rewind to before turn 2 ("change notes")');
    expect(dry.stdout).toContain("restore notes.txt");
    expect(dry.stdout).toContain("delete  b.txt");
    expect(read(ws, "b.txt")).toBe("second\n");

    const done = await h.delve(ws, ["threads", "rewind", id, "--to", "2", "--json"]);
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({
      restored: ["notes.txt"],
      deleted: ["b.txt"],
      conflicts: [],
    });
    expect(read(ws, "notes.txt")).toBe("one\n");
    expect(read(ws, "b.txt")).toBeUndefined();
    expect(read(ws, "a.txt")).toBe("first\n");

    const seen = h.openai.accepted().length;
    h.openai.script([{ text: "third done" }]);
    const next = await h.delve(ws, ["run", "-c", "something else", ...RUN, "--output", "json"]);
    expect(next.code, next.stderr).toBe(0);
    expect(JSON.parse(next.stdout).thread_id).toBe(id);
    const lines = requestLines(h.openai.accepted()[seen]);
    expect(lines).toContain("user: make a");
    expect(lines.at(-1)).toBe("user: something else");
    expect(lines.join("\n")).not.toContain("change notes");
  });

  it("a file the user changed since is left as it is and named; --force overwrites it; a missing turn is exit 2", async () => {
    const ws = h.workspace({ "notes.txt": "one\n" });
    const id = await twoTurnsInProcess(ws);
    fs.writeFileSync(path.join(ws, "b.txt"), "the user's now\n");

    const [missing, noTo, dry] = await Promise.all([
      h.delve(ws, ["threads", "rewind", id, "--to", "3"]),
      h.delve(ws, ["threads", "rewind", id]),
      h.delve(ws, ["threads", "rewind", id, "--to", "2", "--dry-run", "--json"]),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("no turn 3 in this thread: it has turns 1-2");
    expect(noTo.code).toBe(2);
    expect(noTo.stderr).toContain("--to N");

    const plan = JSON.parse(dry.stdout);
    expect(plan.files.find((f: any) => f.path === "b.txt")).toMatchObject({
      action: "delete",
      conflict: "changed_on_disk",
    });
    const forced = await h.delve(ws, ["threads", "rewind", id, "--to", "2", "--force"]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toContain("deleted b.txt");
    expect(read(ws, "b.txt")).toBeUndefined();
  });

  it("--to outside rewind is a usage error", async () => {
    const ws = h.workspace();
    const run = await h.delve(ws, ["threads", "diff", "some-id", "--to", "2"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--to goes with delve threads rewind, not diff");
  });
});

describe("delve context, delve threads cost|compact", () => {
  it("context shows the parts of the window with bars; cost splits per agent; compact summarizes", async () => {
    const ws = h.workspace({ "README.md": "# readme\n" });
    const session = await open(h, ws);
    const id = session.thread.id;
    try {
      await send(h, session, {
        task: "read and delegate",
        replies: [
          { toolCalls: [{ name: "read_file", args: { file_path: "/README.md" } }] },
          {
            toolCalls: [
              { name: "task", args: { description: "hi", subagent_type: "general-purpose" } },
            ],
          },
          { text: "sub says hi" },
          { text: "done" },
        ],
      });
    } finally {
      await session.close();
    }

    // Read-only, so at once.
    const [context, contextJson, costJson] = await Promise.all([
      h.delve(ws, ["context"]),
      h.delve(ws, ["context", "--thread", id, "--json"]),
      h.delve(ws, ["threads", "cost", id, "--json"]),
    ]);
    expect(context.code, context.stderr).toBe(0);
    expect(context.stdout).toContain(`thread ${id}\nwindow `);
    expect(context.stdout).toMatch(/ \d+ of 128000 tokens \(\d+\.\d%\) \(assumed/);
    expect(context.stdout).toMatch(/system prompt +#+\.* +\d+ tokens/);
    expect(context.stdout).toMatch(/\n {2}read_file +/);
    expect(context.stdout).toMatch(/\n {2}README\.md +/);
    const json = JSON.parse(contextJson.stdout);
    expect(json.thread_id).toBe(id);
    expect(json.files.map((f: any) => f.name)).toEqual(["README.md"]);

    const cost = JSON.parse(costJson.stdout);
    expect(cost.byAgent.main.calls).toBe(3);
    expect(cost.byAgent["general-purpose"].calls).toBe(1);

    h.openai.script([{ text: "a short summary" }]);
    const compact = await h.delve(ws, ["threads", "compact", id]);
    expect(compact.code, compact.stderr).toBe(0);
    // Six messages; the last two are kept, and the cut moves back to the task call they answer.
    expect(compact.stdout).toMatch(
      /^compacted: 6 messages \(~\d+ tokens\) -> 4 \(~\d+\); 3 summarized, transcript in \/conversation_history\//,
    );
    const shown = JSON.parse((await h.delve(ws, ["threads", "show", id, "--json"])).stdout);
    expect(shown.messages[0].text).toContain("a short summary");
  });
});
