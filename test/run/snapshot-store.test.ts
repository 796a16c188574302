import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { IgnoreRules } from "../../src/run/snapshots/ignore-rules.js";
import { SnapshotStore, snapshotDir } from "../../src/run/snapshots/snapshot-store.js";
import {
  dropThreadSnapshots,
  logSnapshot,
  readSnapshotLog,
} from "../../src/run/snapshots/turn-log.js";

// The workspace snapshot store on its own: git's ignore syntax, the limits, links, and the
// stat cache never serving a stale hash.

function workspace(files: Record<string, string>): string {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), "delve-snap-"));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(ws, file)), { recursive: true });
    fs.writeFileSync(path.join(ws, file), text);
  }
  return ws;
}

describe("IgnoreRules", () => {
  it("follows git's patterns: names anywhere, anchored paths, directories only, ** and ! re-includes, nested files apply below them", () => {
    const rules = new IgnoreRules()
      .with("", "# comment\n*.log\n!keep.log\n/top.txt\nbuild/\ndocs/**/*.tmp\n")
      .with("pkg", "local.txt\n");
    const cases: Array<[string, boolean, boolean]> = [
      ["a.log", false, true],
      ["deep/x/a.log", false, true],
      ["keep.log", false, false],
      ["top.txt", false, true],
      ["sub/top.txt", false, false],
      ["build", true, true],
      ["build", false, false],
      ["docs/a/b/c.tmp", false, true],
      ["docs/c.tmp", false, true],
      ["pkg/local.txt", false, true],
      ["local.txt", false, false],
      [".git", true, true],
      ["x/.delve", true, true],
    ];
    expect(cases.map(([file, dir]) => [file, dir, rules.ignores(file, dir)])).toEqual(cases);
  });
});

describe("SnapshotStore", () => {
  it("records files by content hash once, links as links, and skips ignored, big and binary files", () => {
    const ws = workspace({
      ".gitignore": "out/\n",
      "a.txt": "same\n",
      "b.txt": "same\n",
      "out/x.txt": "ignored\n",
      "big.txt": "x".repeat(2048),
    });
    fs.writeFileSync(path.join(ws, "bin.dat"), Buffer.from([0, 1, 2]));
    fs.symlinkSync("/etc", path.join(ws, "etc-link"));
    const store = new SnapshotStore(ws, { maxFileBytes: 1024, maxFiles: 100 });
    const { id, tree } = store.take();
    expect(Object.keys(tree.entries).sort()).toEqual([
      ".gitignore",
      "a.txt",
      "b.txt",
      "big.txt",
      "bin.dat",
      "etc-link",
    ]);
    expect(tree.entries["a.txt"]).toEqual(tree.entries["b.txt"]);
    expect(tree.entries["etc-link"]).toEqual({ kind: "link", target: "/etc" });
    expect(tree.entries["big.txt"]).toMatchObject({ kind: "skipped", reason: "too_big" });
    expect(tree.entries["bin.dat"]).toMatchObject({ kind: "skipped", reason: "binary" });
    expect(store.tree(id)).toEqual(tree);
    const a = tree.entries["a.txt"] as { hash: string };
    expect(store.object(a.hash)?.toString()).toBe("same\n");
    // The same workspace again is the same tree: nothing new is stored.
    expect(new SnapshotStore(ws, store.limits).take().id).toBe(id);
  });

  it("a file rewritten with the same size within the second is hashed again, not served from the cache", () => {
    const ws = workspace({ "a.txt": "one\n" });
    const store = new SnapshotStore(ws);
    const first = store.take().tree.entries["a.txt"];
    const stat = fs.statSync(path.join(ws, "a.txt"));
    fs.writeFileSync(path.join(ws, "a.txt"), "two\n");
    fs.utimesSync(path.join(ws, "a.txt"), stat.atime, stat.mtime);
    const second = new SnapshotStore(ws).take().tree.entries["a.txt"];
    expect(second).not.toEqual(first);
  });

  it("stops at maxFiles and says so", () => {
    const ws = workspace({ "a.txt": "a", "b.txt": "b", "c.txt": "c" });
    const { tree } = new SnapshotStore(ws, { maxFileBytes: 1024, maxFiles: 2 }).take(false);
    expect(tree.truncated).toBe(true);
    expect(Object.keys(tree.entries)).toHaveLength(2);
  });
});

describe("dropThreadSnapshots", () => {
  it("removes a deleted thread's log and the objects only it named; what another thread names stays", () => {
    const ws = workspace({ "shared.txt": "shared\n" });
    logSnapshot(ws, "thread-a", { phase: "start", turn_before: "" });
    fs.writeFileSync(path.join(ws, "only-b.txt"), "only b\n");
    logSnapshot(ws, "thread-b", { phase: "start", turn_before: "" });
    const store = new SnapshotStore(ws);
    const [b] = readSnapshotLog(ws, "thread-b");
    const entries = store.tree(b!.tree!)!.entries as Record<string, { hash: string }>;
    // Objects written in the last hour may be a snapshot in progress: age them.
    const objects = path.join(snapshotDir(ws), "objects");
    const old = new Date(Date.now() - 2 * 3600_000);
    for (const d of fs.readdirSync(objects, { recursive: true, withFileTypes: true })) {
      if (d.isFile()) fs.utimesSync(path.join(d.parentPath, d.name), old, old);
    }
    expect(dropThreadSnapshots(ws, "thread-b")).toBe(2); // only-b.txt and b's tree.
    expect(readSnapshotLog(ws, "thread-b")).toEqual([]);
    expect(store.object(entries["only-b.txt"]!.hash)).toBeUndefined();
    expect(store.object(entries["shared.txt"]!.hash)?.toString()).toBe("shared\n");
    expect(readSnapshotLog(ws, "thread-a")).toHaveLength(1);
    // The next snapshot stores the removed file's bytes again, not trusting a stale cache.
    const again = new SnapshotStore(ws).take().tree.entries["only-b.txt"] as { hash: string };
    expect(store.object(again.hash)?.toString()).toBe("only b\n");
  });
});
