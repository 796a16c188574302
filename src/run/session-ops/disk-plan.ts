// Rewind and the thread diff from the workspace snapshots (src/run/snapshots): what every run
// of the thread changed on disk, by any tool (write_file, edit_file, execute, subagents), is
// the difference between the trees at its start and its end; what changed between two runs
// was someone else.
import fs from "node:fs";
import path from "node:path";
import { applyPatch, createTwoFilesPatch, structuredPatch } from "diff";
import type { RunSession } from "../engine.js";
import {
  SNAPSHOT_LIMITS,
  SnapshotStore,
  sameEntry,
  type Tree,
  type TreeEntry,
} from "../snapshots/snapshot-store.js";
import { readSnapshotLog, type SnapshotLogEntry } from "../snapshots/turn-log.js";
import type { FileDiff } from "../step-files.js";
import type { Timeline, TurnAt } from "./timeline.js";

/** What rewind writes at a path: bytes (with their mode), a link, or nothing (delete). */
export type RestoreTarget = { bytes: Buffer; mode?: number } | { link: string } | null;

/** One path a rewind from the snapshots would change. */
export interface DiskFile {
  path: string;
  action: "restore" | "delete";
  conflict?: "changed_on_disk";
  skipped?: "too_big" | "binary";
  merged?: boolean;
  diff: string;
}

/** What the snapshots say a rewind to a turn does. */
export interface DiskPlan {
  files: DiskFile[];
  targets: Map<string, RestoreTarget>;
  /** The tree the rewind goes back to (its directories are kept when pruning). */
  target: Tree;
  notes: string[];
}

interface Walked {
  /** Paths the thread's runs changed (start to end of a run). */
  touched: Set<string>;
  /** Paths changed between two runs (not by the thread). */
  outside: Set<string>;
  /** The tree the thread's last run left (or the disk now, for a run cut off). */
  latest: Tree;
  notes: string[];
}

const MIB = (n: number) => `${(n / (1 << 20)).toFixed(1)} MiB`;

// Where the turn's log starts: the new turn begun at the checkpoint before it.
function startOf(log: SnapshotLogEntry[], timeline: Timeline, at: TurnAt): number {
  const first = !timeline.line[at.before]?.parentConfig?.configurable?.checkpoint_id;
  return log.findIndex(
    (e) =>
      e.phase === "start" &&
      typeof e.turn_before === "string" &&
      (e.turn_before === at.checkpoint_id || (first && at.turn === 1 && e.turn_before === "")),
  );
}

function changed(a: Tree, b: Tree, into: Set<string>): void {
  for (const file of new Set([...Object.keys(a.entries), ...Object.keys(b.entries)])) {
    if (!sameEntry(a.entries[file], b.entries[file])) into.add(file);
  }
}

function walk(store: SnapshotStore, log: SnapshotLogEntry[], disk: Tree): Walked {
  const touched = new Set<string>();
  const outside = new Set<string>();
  const notes: string[] = [];
  let open: Tree | undefined; // The start of the run being read.
  let left: Tree | undefined; // What the last run (or rewind) left.
  for (const entry of log) {
    const tree = entry.tree ? store.tree(entry.tree) : undefined;
    if (!tree) {
      notes.push(
        `a workspace snapshot is missing (${entry.error ?? "not stored"}): what changed around it is not known.`,
      );
      open = undefined;
      continue;
    }
    if (tree.truncated && !notes.some((n) => n.includes("files: the snapshots"))) {
      notes.push(
        `the workspace has more than ${SNAPSHOT_LIMITS.maxFiles} files: the snapshots stop there, files past them are not restored.`,
      );
    }
    if (entry.phase === "start") {
      // A start after a start: the run before was cut off; its changes count as the thread's.
      if (open) changed(open, tree, touched);
      else if (left) changed(left, tree, outside);
      open = tree;
    } else if (entry.phase === "end") {
      if (open) changed(open, tree, touched);
      open = undefined;
      left = tree;
    } else {
      if (open) {
        // A run cut off before its end: what differs now counts as its (the thread's).
        changed(open, tree, touched);
      } else if (left) {
        // What changed since the run and the rewind did not write was someone else's.
        const since = new Set<string>();
        changed(left, tree, since);
        const wrote = new Set(entry.wrote ?? []);
        for (const file of since) if (!wrote.has(file)) outside.add(file);
      }
      open = undefined;
      left = tree;
    }
  }
  if (open) {
    changed(open, disk, touched);
    left = disk;
  }
  return { touched, outside, latest: left ?? disk, notes };
}

function textOf(store: SnapshotStore, entry: TreeEntry | undefined): string {
  if (!entry) return "";
  if (entry.kind === "link") return `symbolic link to ${entry.target}\n`;
  if (entry.kind === "skipped") return "";
  return store.object(entry.hash)?.toString("utf8") ?? "";
}

/**
 * The rewind to `at` from the snapshots, or undefined when the thread has none for that
 * turn (a thread run before them): rewind then works from the messages alone.
 */
export function diskPlan(
  session: RunSession,
  timeline: Timeline,
  at: TurnAt,
): DiskPlan | undefined {
  const log = readSnapshotLog(session.workspace, session.thread.id);
  const from = startOf(log, timeline, at);
  const store = new SnapshotStore(session.workspace);
  const target = from >= 0 && log[from]?.tree ? store.tree(log[from]!.tree!) : undefined;
  if (!target) return undefined;
  const disk = store.take(false).tree;
  const { touched, outside, latest, notes } = walk(store, log.slice(from), disk);
  const files: DiskFile[] = [];
  const targets = new Map<string, RestoreTarget>();
  for (const file of [...touched].sort()) {
    const want = target.entries[file];
    const now = disk.entries[file];
    if (sameEntry(want, now)) continue;
    const entry: DiskFile = { path: file, action: want ? "restore" : "delete", diff: "" };
    if (!sameEntry(now, latest.entries[file]) || outside.has(file)) {
      entry.conflict = "changed_on_disk";
    }
    if (want?.kind === "skipped") {
      entry.skipped = want.reason;
      files.push(entry);
      continue;
    }
    const bytes = want?.kind === "file" ? store.object(want.hash) : undefined;
    if (want?.kind === "file" && !bytes) {
      notes.push(`${file}: its content at the turn is missing from the store: not restored.`);
      continue;
    }
    let restore: RestoreTarget =
      want?.kind === "link" ? { link: want.target } : bytes ? { bytes, mode: want?.mode } : null;
    const nowText =
      now?.kind === "file" ? readNoFollow(session.workspace, file) : textOf(store, now);
    let wantText = textOf(store, want);
    // Changed since by someone else: the agent's changes are undone around theirs when they
    // do not overlap (a patch from what the agent left to the turn's content, without context).
    const left = latest.entries[file];
    if (entry.conflict && want?.kind === "file" && now?.kind === "file" && left?.kind === "file") {
      const undo = structuredPatch(file, file, textOf(store, left), wantText, "", "", {
        context: 0,
      });
      const merged = applyPatch(nowText, undo);
      if (merged !== false) {
        delete entry.conflict;
        entry.merged = true;
        wantText = merged;
        restore = { bytes: Buffer.from(merged), mode: want.mode };
      }
    }
    targets.set(file, restore);
    entry.diff =
      now?.kind === "skipped"
        ? `${file}: ${now.reason === "binary" ? "a binary file" : `a file of ${MIB(now.size)}`} on disk now (no diff)\n`
        : createTwoFilesPatch(file, file, nowText, wantText);
    files.push(entry);
  }
  return { files, targets, target, notes };
}

// A workspace file's text, never read through a link.
function readNoFollow(workspace: string, file: string): string {
  try {
    const fd = fs.openSync(
      path.join(workspace, file),
      fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW,
    );
    try {
      return fs.readFileSync(fd, "utf8");
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return "";
  }
}

/**
 * What the thread changed on disk from its first turn's start, or undefined when the
 * snapshots do not reach back to it (a thread begun before them).
 */
export function diskThreadDiff(session: RunSession, timeline: Timeline): FileDiff[] | undefined {
  const log = readSnapshotLog(session.workspace, session.thread.id);
  const turn = timeline.turns[0];
  const from = turn ? startOf(log, timeline, turn) : -1;
  const store = new SnapshotStore(session.workspace);
  const id = from >= 0 ? log[from]!.tree : undefined;
  const first = id ? store.tree(id) : undefined;
  if (!first) return undefined;
  const { touched, latest } = walk(store, log.slice(from), store.take(false).tree);
  const out: FileDiff[] = [];
  for (const file of [...touched].sort()) {
    const a = first.entries[file];
    const b = latest.entries[file];
    if (sameEntry(a, b)) continue;
    const op = !a ? "create" : !b ? "delete" : "edit";
    const diff =
      a?.kind === "skipped" || b?.kind === "skipped"
        ? `${file}: a big or binary file changed (no diff)\n`
        : createTwoFilesPatch(file, file, textOf(store, a), textOf(store, b));
    out.push({ path: file, op, diff });
  }
  return out;
}
