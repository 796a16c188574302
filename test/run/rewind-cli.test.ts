import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { harnessPerFile, read } from "./session-ops-harness.js";

// `delve threads rewind` and `delve threads diff` over what a shell command changed: threads
// made by the real binary with `execute` in the bubblewrap sandbox (the default), then rewound
// from the workspace snapshots by another process.

vi.setConfig({ testTimeout: 180_000 });

const h = harnessPerFile({ inProcess: false });

const RUN = ["--model", "openai:delve-unpriced-model", "--approval", "yolo"];
const run = (command: string) => ({ name: "execute", args: { command } });

describe("delve threads rewind of execute's changes", () => {
  it("diff shows them; --dry-run previews; a user-changed file is left and named until --force", async () => {
    const ws = h.workspace({ "notes.txt": "one\n", "old.txt": "old\n" });
    h.openai.script([
      { text: "first done" },
      { toolCalls: [run("echo two > notes.txt && rm old.txt && echo new > new.txt")] },
      { text: "second done" },
    ]);
    const first = await h.delve(ws, ["run", "plain", ...RUN, "--output", "json"]);
    expect(first.code, first.stderr).toBe(0);
    const id = JSON.parse(first.stdout).thread_id;
    const second = await h.delve(ws, ["run", "-c", "shell", ...RUN]);
    expect(second.code, second.stderr).toBe(0);
    expect(read(ws, "new.txt")).toBe("new\n");

    const diff = await h.delve(ws, ["threads", "diff", id]);
    expect(diff.stdout).toContain("-one\n+two");
    expect(diff.stdout).toContain("-old");
    expect(diff.stdout).toContain("+new");

    fs.writeFileSync(path.join(ws, "new.txt"), "the user's\n");
    const dry = await h.delve(ws, ["threads", "rewind", id, "--to", "2", "--dry-run"]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain("delete  new.txt  (conflict: changed on disk");
    expect(dry.stdout).toContain("restore notes.txt");
    expect(dry.stdout).toContain("restore old.txt");
    expect(dry.stdout).toContain("-two\n+one");
    expect(dry.stdout).not.toContain("note:");

    const kept = await h.delve(ws, ["threads", "rewind", id, "--to", "2", "--json"]);
    expect(kept.code, kept.stderr).toBe(0);
    const result = JSON.parse(kept.stdout);
    expect(result.plan.source).toBe("snapshots");
    expect(result).toMatchObject({ restored: ["notes.txt", "old.txt"], deleted: [], skipped: [] });
    expect(result.conflicts.map((c: any) => c.path)).toEqual(["new.txt"]);
    expect(read(ws, "notes.txt")).toBe("one\n");
    expect(read(ws, "old.txt")).toBe("old\n");
    expect(read(ws, "new.txt")).toBe("the user's\n");

    // The file the rewind left stays the user's: a rewind further back still names it as a
    // conflict, and only --force deletes it.
    const further = await h.delve(ws, [
      "threads",
      "rewind",
      id,
      "--to",
      "1",
      "--dry-run",
      "--json",
    ]);
    expect(JSON.parse(further.stdout).files).toMatchObject([
      { path: "new.txt", action: "delete", conflict: "changed_on_disk" },
    ]);
    const forced = await h.delve(ws, ["threads", "rewind", id, "--to", "1", "--force"]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toContain("deleted new.txt");
    expect(read(ws, "new.txt")).toBeUndefined();
    expect(read(ws, "notes.txt")).toBe("one\n");
  });
});
