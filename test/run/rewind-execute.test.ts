import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { inflateSync } from "node:zlib";
import { describe, expect, it, vi } from "vitest";
import {
  filesByStep,
  previewRewind,
  readHistory,
  rewind,
  stepsOf,
  threadDiff,
} from "../../src/run/index.js";
import { harnessPerFile, MODEL, open, read, send, write } from "./session-ops-harness.js";

// Rewind of what the model did on disk outside the file tools: shell commands (`execute`, on
// the host here: --sandbox none) and subagents, through the workspace snapshots each run takes
// at its start and end. The real engine, ChatOpenAI on the local fake, real files.

vi.setConfig({ testTimeout: 120_000 });

const h = harnessPerFile();

const run = (command: string) => ({ name: "execute", args: { command } });
const FIRST = { task: "first", replies: [{ text: "ok" }] };

/** Every file of the workspace but .delve, as path -> text (links as "-> target"). */
function tree(ws: string): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (dir: string) => {
    for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, d.name);
      const rel = path.relative(ws, file);
      if (rel === ".delve") continue;
      if (d.isSymbolicLink()) out[rel] = `-> ${fs.readlinkSync(file)}`;
      else if (d.isDirectory()) visit(file);
      else out[rel] = fs.readFileSync(file, "utf8");
    }
  };
  visit(ws);
  return out;
}

describe("rewind of execute", () => {
  it("a turn whose commands create, edit and delete files is rewound: the disk is as before the turn, empty new directories go, the diff was shown first", async () => {
    const ws = h.workspace({ "keep.txt": "alpha\nbeta\n", "gone.txt": "bye\n", "src/a.ts": "x\n" });
    const session = await open(h, ws);
    try {
      await send(h, session, FIRST);
      const before = tree(ws);
      await send(h, session, {
        task: "shell work",
        replies: [
          {
            toolCalls: [
              run(
                "mkdir -p made/deep && echo new > made/deep/new.txt && sed -i s/beta/gamma/ keep.txt && rm gone.txt && echo more >> src/a.ts && chmod 755 src/a.ts",
              ),
            ],
          },
          { text: "done" },
        ],
      });
      expect(read(ws, "made/deep/new.txt")).toBe("new\n");

      const diff = await threadDiff(session);
      expect(diff.files.map((f) => [f.path, f.op])).toEqual([
        ["gone.txt", "delete"],
        ["keep.txt", "edit"],
        ["made/deep/new.txt", "create"],
        ["src/a.ts", "edit"],
      ]);
      expect(diff.text).toContain("-beta\n+gamma");

      const plan = await previewRewind(session, 2);
      expect(plan.source).toBe("snapshots");
      expect(plan.warnings).toEqual([]);
      expect(plan.files.map((f) => [f.path, f.action, f.conflict])).toEqual([
        ["gone.txt", "restore", undefined],
        ["keep.txt", "restore", undefined],
        ["made/deep/new.txt", "delete", undefined],
        ["src/a.ts", "restore", undefined],
      ]);
      expect(plan.text).toContain("-gamma\n+beta");
      expect(plan.text).toContain("+bye");
      expect(plan.text).toContain("-new");
      // The preview changed nothing.
      expect(read(ws, "gone.txt")).toBeUndefined();

      const done = await rewind(session, 2);
      expect(done.conflicts).toEqual([]);
      expect(done.deleted).toEqual(["made/deep/new.txt"]);
      expect(tree(ws)).toEqual(before);
      expect(fs.existsSync(path.join(ws, "made"))).toBe(false);
      expect(fs.statSync(path.join(ws, "src/a.ts")).mode & 0o777).toBe(0o644);
      // After the rewind, the thread changed nothing.
      expect((await threadDiff(session)).files).toEqual([]);
    } finally {
      await session.close();
    }
  });

  it("a file the user changed since (after the run, or between two turns) is a conflict, kept without force and overwritten with it", async () => {
    const ws = h.workspace({ "notes.txt": "one\n" });
    const session = await open(h, ws);
    try {
      await send(h, session, FIRST);
      await send(h, session, {
        task: "make files",
        replies: [
          { toolCalls: [run("echo made > a.txt && echo made > b.txt && echo two > notes.txt")] },
          { text: "done" },
        ],
      });
      // Between turns 2 and 3 the user edits a.txt; turn 3 does not touch it.
      fs.writeFileSync(path.join(ws, "a.txt"), "the user's a\n");
      await send(h, session, { task: "third", replies: [{ text: "nothing to do" }] });
      // After the last run the user edits b.txt.
      fs.writeFileSync(path.join(ws, "b.txt"), "the user's b\n");

      const plan = await previewRewind(session, 2);
      expect(plan.files.map((f) => [f.path, f.action, f.conflict])).toEqual([
        ["a.txt", "delete", "changed_on_disk"],
        ["b.txt", "delete", "changed_on_disk"],
        ["notes.txt", "restore", undefined],
      ]);
      expect(plan.text).toContain("delete  a.txt  (conflict: changed on disk");
      const done = await rewind(session, 2);
      expect(done.conflicts.map((f) => f.path)).toEqual(["a.txt", "b.txt"]);
      expect(read(ws, "a.txt")).toBe("the user's a\n");
      expect(read(ws, "b.txt")).toBe("the user's b\n");
      expect(read(ws, "notes.txt")).toBe("one\n");

      // Rewinding again, with force, overwrites them: the thread's turn 1 had neither file.
      const forced = await rewind(session, 1, { force: true });
      expect(forced.deleted.sort()).toEqual(["a.txt", "b.txt"]);
      expect(tree(ws)).toEqual({ "notes.txt": "one\n" });
    } finally {
      await session.close();
    }
  });
});

describe("rewind of a subagent's writes", () => {
  it("a file the general-purpose subagent wrote with write_file is in the thread diff and is rewound", async () => {
    const ws = h.workspace({ "notes.txt": "one\n" });
    const session = await open(h, ws);
    try {
      await send(h, session, FIRST);
      await send(h, session, {
        task: "delegate",
        replies: [
          {
            toolCalls: [
              { name: "task", args: { description: "write it", subagent_type: "general-purpose" } },
            ],
          },
          { toolCalls: [write("sub.txt", "from the subagent\n")] },
          { text: "subagent done" },
          { text: "ok" },
        ],
      });
      expect(read(ws, "sub.txt")).toBe("from the subagent\n");
      const diff = await threadDiff(session);
      expect(diff.files.map((f) => [f.path, f.op])).toEqual([["sub.txt", "create"]]);
      // The parent's checkpoints carry the subagent's file calls: the viewer's files per step.
      const steps = stepsOf(await readHistory(session.history()), MODEL);
      const files = filesByStep(steps, ws);
      expect(files.at(-1)).toEqual({ "sub.txt": "from the subagent\n" });
      expect(steps.flatMap((st) => st.messages).find((m) => m.name === "task")?.file_calls).toEqual(
        [
          {
            name: "write_file",
            args: { file_path: "/sub.txt", content: "from the subagent\n" },
            result: expect.stringContaining("/sub.txt"),
          },
        ],
      );
      const plan = await previewRewind(session, 2);
      expect(plan.files.map((f) => [f.path, f.action])).toEqual([["sub.txt", "delete"]]);
      expect(plan.warnings).toEqual([]);
      // Without snapshots too (a thread's messages only), the subagent's write is rewound.
      const log = path.join(ws, ".delve", "snapshots", "threads");
      const saved = fs
        .readdirSync(log)
        .map((f) => [f, fs.readFileSync(path.join(log, f))] as const);
      fs.rmSync(log, { recursive: true });
      const fromMessages = await previewRewind(session, 2);
      expect(fromMessages.source).toBe("messages");
      expect(fromMessages.files.map((f) => [f.path, f.action])).toEqual([["sub.txt", "delete"]]);
      fs.mkdirSync(log);
      for (const [f, bytes] of saved) fs.writeFileSync(path.join(log, f), bytes);
      const done = await rewind(session, 2);
      expect(done.plan.source).toBe("snapshots");
      expect(done.deleted).toEqual(["sub.txt"]);
      expect(read(ws, "sub.txt")).toBeUndefined();
    } finally {
      await session.close();
    }
  });
});

describe("what the snapshots leave out", () => {
  it("ignored paths are neither snapshotted nor touched; a binary or over-1-MiB file is named as not restored", async () => {
    const ws = h.workspace({ ".gitignore": "build/\n*.log\n!keep.log\n", "keep.log": "k\n" });
    fs.writeFileSync(path.join(ws, "logo.bin"), Buffer.from([1, 0, 2, 0, 3]));
    fs.writeFileSync(path.join(ws, "big.txt"), "x".repeat(1.5 * (1 << 20)));
    const session = await open(h, ws);
    try {
      await send(h, session, FIRST);
      await send(h, session, {
        task: "build",
        replies: [
          {
            toolCalls: [
              run(
                "mkdir build && echo out > build/out.txt && echo noise > run.log && echo k2 > keep.log && printf 'a\\0b' > logo.bin && echo y >> big.txt",
              ),
            ],
          },
          { text: "built" },
        ],
      });
      const plan = await previewRewind(session, 2);
      expect(plan.files.map((f) => [f.path, f.action, f.skipped])).toEqual([
        ["big.txt", "restore", "too_big"],
        ["keep.log", "restore", undefined],
        ["logo.bin", "restore", "binary"],
      ]);
      expect(plan.text).toContain("logo.bin  (skipped: a binary file");
      expect(plan.text).toContain("big.txt  (skipped: over the snapshot's 1 MiB cap");
      const done = await rewind(session, 2);
      expect(done.skipped.map((f) => f.path)).toEqual(["big.txt", "logo.bin"]);
      expect(read(ws, "keep.log")).toBe("k\n");
      expect(read(ws, "build/out.txt")).toBe("out\n");
      expect(read(ws, "run.log")).toBe("noise\n");
      // The store holds no copy of an ignored or a big file.
      const objects = path.join(ws, ".delve", "snapshots", "objects");
      const stored = fs
        .readdirSync(objects, { recursive: true, withFileTypes: true })
        .filter((d) => d.isFile())
        .map((d) => inflateSync(fs.readFileSync(path.join(d.parentPath, d.name))).toString());
      expect(stored.some((t) => t === "out\n" || t === "noise\n" || t.startsWith("xxxx"))).toBe(
        false,
      );
    } finally {
      await session.close();
    }
  });
});

describe("symbolic links the model plants (attack)", () => {
  it("are recorded as links, never followed: not on snapshot (no outside content stored), not on restore (outside files unchanged)", async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "delve-outside-"));
    fs.writeFileSync(path.join(outside, "secret.txt"), "TOP-SECRET-CONTENT\n");
    fs.writeFileSync(path.join(outside, "target.txt"), "outside target\n");
    fs.mkdirSync(path.join(outside, "dir"));
    fs.writeFileSync(path.join(outside, "dir", "inner.txt"), "OUTSIDE-INNER\n");
    const ws = h.workspace({ "notes.txt": "mine\n", "sub/a.txt": "in sub\n" });
    const session = await open(h, ws);
    try {
      await send(h, session, FIRST);
      await send(h, session, {
        task: "links",
        replies: [
          {
            toolCalls: [
              run(
                [
                  `ln -s ${outside}/secret.txt leak.txt`,
                  `ln -s ${outside}/dir evil`,
                  `rm notes.txt && ln -s ${outside}/target.txt notes.txt`,
                  `rm -r sub && ln -s ${outside}/dir sub`,
                ].join(" && "),
              ),
            ],
          },
          { text: "linked" },
        ],
      });
      const plan = await previewRewind(session, 2);
      expect(plan.files.map((f) => [f.path, f.action, f.conflict])).toEqual([
        ["evil", "delete", undefined],
        ["leak.txt", "delete", undefined],
        ["notes.txt", "restore", undefined],
        ["sub", "delete", undefined],
        ["sub/a.txt", "restore", undefined],
      ]);
      expect(plan.text).not.toContain("TOP-SECRET");
      expect(plan.text).not.toContain("OUTSIDE-INNER");
      const objects = path.join(ws, ".delve", "snapshots", "objects");
      const stored = fs
        .readdirSync(objects, { recursive: true, withFileTypes: true })
        .filter((d) => d.isFile())
        .map((d) => inflateSync(fs.readFileSync(path.join(d.parentPath, d.name))).toString())
        .join("\n");
      expect(stored).not.toContain("TOP-SECRET");
      expect(stored).not.toContain("OUTSIDE-INNER");
      expect(stored).not.toContain("outside target");

      const done = await rewind(session, 2);
      expect(done.conflicts).toEqual([]);
      expect(tree(ws)).toEqual({ "notes.txt": "mine\n", "sub/a.txt": "in sub\n" });
      expect(fs.lstatSync(path.join(ws, "notes.txt")).isSymbolicLink()).toBe(false);
      // Outside the workspace nothing moved: no file written into the linked directory.
      expect(fs.readFileSync(path.join(outside, "target.txt"), "utf8")).toBe("outside target\n");
      expect(fs.readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe(
        "TOP-SECRET-CONTENT\n",
      );
      expect(fs.readdirSync(path.join(outside, "dir"))).toEqual(["inner.txt"]);
    } finally {
      await session.close();
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});
