// Which snapshot belongs to which turn: a log per thread (`.delve/snapshots/threads/ID.jsonl`)
// of the workspace's tree when each run of the thread started and ended, and after each
// rewind. A snapshot that fails is logged with its error and never fails the run.
import fs from "node:fs";
import path from "node:path";
import { SnapshotStore, snapshotDir } from "./snapshot-store.js";

/** One line of a thread's snapshot log. */
export interface SnapshotLogEntry {
  /** `start`/`end` of one run of the thread (`send`, `decide`, `answer`); `rewind` after one. */
  phase: "start" | "end" | "rewind";
  /**
   * For the start of a new turn (a task sent): the checkpoint the thread stood at before it
   * ("" for the thread's first); null for a run that continues a turn (a resume).
   */
  turn_before?: string | null;
  /** For a rewind: the paths it wrote or deleted (any other change since the run was not its). */
  wrote?: string[];
  /** The tree's id in the store; absent when the snapshot failed. */
  tree?: string;
  error?: string;
  at: string;
  /** How long the snapshot took, in milliseconds. */
  ms?: number;
}

const logFile = (workspace: string, threadId: string) =>
  path.join(snapshotDir(workspace), "threads", `${threadId.replace(/[^\w-]/g, "_")}.jsonl`);

/** The thread's snapshot log, oldest first (empty for a thread run before snapshots). */
export function readSnapshotLog(workspace: string, threadId: string): SnapshotLogEntry[] {
  let text: string;
  try {
    text = fs.readFileSync(logFile(workspace, threadId), "utf8");
  } catch {
    return [];
  }
  return text.split("\n").flatMap((line) => {
    try {
      return line ? [JSON.parse(line) as SnapshotLogEntry] : [];
    } catch {
      return []; // A line cut off by a crash.
    }
  });
}

/** Snapshots the workspace now and appends it to the thread's log as `entry`. */
export function logSnapshot(
  workspace: string,
  threadId: string,
  entry: Pick<SnapshotLogEntry, "phase" | "turn_before" | "wrote">,
  store = new SnapshotStore(workspace),
): SnapshotLogEntry {
  const line: SnapshotLogEntry = { ...entry, at: new Date().toISOString() };
  const started = performance.now();
  try {
    line.tree = store.take().id;
  } catch (error) {
    line.error = error instanceof Error ? error.message : String(error);
  }
  line.ms = Math.round(performance.now() - started);
  try {
    const file = logFile(workspace, threadId);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
  } catch {
    // A workspace that cannot be written runs on without snapshots; rewind says so.
  }
  return line;
}

/**
 * Called by the engine as a run of the thread starts: snapshots the workspace (a new turn
 * when `input` is a task) and returns what snapshots it again when the run ends.
 */
export function snapshotRun(
  workspace: string,
  threadId: string,
  input: unknown,
  state: { config?: { configurable?: { checkpoint_id?: unknown } } } | undefined,
): { end(): void } {
  const store = new SnapshotStore(workspace);
  const task = Boolean(input && typeof input === "object" && "messages" in input);
  const before = String(state?.config?.configurable?.checkpoint_id ?? "");
  logSnapshot(workspace, threadId, { phase: "start", turn_before: task ? before : null }, store);
  return { end: () => void logSnapshot(workspace, threadId, { phase: "end" }, store) };
}

// Objects written this recently may belong to a snapshot being taken: never swept.
const SWEEP_GRACE_MS = 60 * 60 * 1000;

/**
 * Forgets a deleted thread's snapshots: its log goes, then every object no remaining
 * thread's tree names (and older than an hour, so a snapshot being taken keeps its own).
 * Returns how many objects were removed.
 */
export function dropThreadSnapshots(workspace: string, threadId: string): number {
  fs.rmSync(logFile(workspace, threadId), { force: true });
  const dir = snapshotDir(workspace);
  const store = new SnapshotStore(workspace);
  const live = new Set<string>();
  let logs: string[];
  try {
    logs = fs.readdirSync(path.join(dir, "threads")).filter((f) => f.endsWith(".jsonl"));
  } catch {
    logs = [];
  }
  for (const log of logs) {
    for (const entry of readSnapshotLog(workspace, log.slice(0, -".jsonl".length))) {
      if (!entry.tree || live.has(entry.tree)) continue;
      live.add(entry.tree);
      for (const e of Object.values(store.tree(entry.tree)?.entries ?? {})) {
        if (e.kind === "file") live.add(e.hash);
      }
    }
  }
  let removed = 0;
  const objects = path.join(dir, "objects");
  const cutoff = Date.now() - SWEEP_GRACE_MS;
  for (const prefix of safeList(objects)) {
    for (const rest of safeList(path.join(objects, prefix))) {
      const file = path.join(objects, prefix, rest);
      if (live.has(prefix + rest)) continue;
      try {
        if (fs.statSync(file).mtimeMs > cutoff) continue;
        fs.rmSync(file);
        removed++;
      } catch {
        // Gone already.
      }
    }
  }
  // The stat cache may name a removed object as stored: the next snapshot reads files again.
  if (removed) fs.rmSync(path.join(dir, "stat-cache.json"), { force: true });
  return removed;
}

function safeList(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}
