// Rewind: the thread goes back to the checkpoint before a turn (a LangGraph fork of it, under
// the same thread id), and the workspace files the agent changed since go back with it.
import fs from "node:fs";
import path from "node:path";
import type { RunSession } from "../engine.js";
import type { ThreadConfig } from "../session-graph.js";
import { logSnapshot } from "../snapshots/turn-log.js";
import { openThreadsDb } from "../threads-db.js";
import { readUsage, USAGE_KEY } from "../usage.js";
import {
  insideWorkspace,
  planRewind,
  type RestoreTarget,
  type RewindFile,
  type RewindPlan,
} from "./rewind-plan.js";
import { readTimeline, type Timeline, type TurnAt } from "./timeline.js";
import { settle, writeState } from "./write-state.js";

export type { RewindFile, RewindPlan };

/** Options of `rewind`. */
export interface RewindOptions {
  /** Overwrite files with a conflict too (a user's change since is lost). */
  force?: boolean;
}

/** What a rewind did. */
export interface RewindResult {
  /** The plan it carried out. */
  plan: RewindPlan;
  /** The thread's new newest checkpoint (a copy of the one before the turn). */
  checkpoint_id: string;
  /** Files written back to their content at the turn. */
  restored: string[];
  /** Files deleted (created by the agent after the turn). */
  deleted: string[];
  /** Files left as they are because of a conflict (rewind again with `force` to overwrite). */
  conflicts: RewindFile[];
  /** Files left as they are because the snapshot did not keep them (binary, over the cap). */
  skipped: RewindFile[];
}

/**
 * What rewinding to `turn` (a `TurnPoint.turn`) would undo: the conversation dropped and the
 * diff of every file the agent wrote or edited since. Changes nothing. Throws a RangeError
 * for a turn the thread does not have.
 */
export async function previewRewind(session: RunSession, turn: number): Promise<RewindPlan> {
  return planRewind(session, await readTimeline(session), turn).plan;
}

/**
 * Rewinds the thread to the checkpoint before `turn`: the next `send` continues from there
 * (the thread id stays, so `delve -c` continues the rewound thread), and the files the agent
 * changed since are restored to their content then (deleted when created after). Files the
 * agent did not change are never touched; a conflict is reported and left alone unless
 * `force`. The undone turns' usage records stay in the thread (their tokens were spent).
 * Throws a RangeError for a turn the thread does not have; a thread waiting on an approval is
 * rewound like any other (the pause goes with the turn).
 */
export async function rewind(
  session: RunSession,
  turn: number,
  options: RewindOptions = {},
): Promise<RewindResult> {
  const timeline = await readTimeline(session);
  const { plan, at, targets, keep } = planRewind(session, timeline, turn);
  const restored: string[] = [];
  const deleted: string[] = [];
  const conflicts: RewindFile[] = [];
  const skipped: RewindFile[] = [];
  for (const file of plan.files) {
    const target = targets.get(file.path);
    const absolute = placeOf(session.workspace, file.path);
    if (file.skipped) {
      skipped.push(file);
      continue;
    }
    const blocked =
      file.conflict === "unknown" || (file.conflict === "changed_on_disk" && !options.force);
    if (blocked || target === undefined || !absolute) {
      conflicts.push(file);
      continue;
    }
    try {
      put(absolute, target);
      (target === null ? deleted : restored).push(file.path);
    } catch {
      // A directory in the file's place, or the file's parent is one no longer: left as it is.
      conflicts.push(file);
    }
  }
  pruneDirs(session.workspace, deleted, keep);
  const checkpoint = await forkAt(session, timeline, at);
  // The rewound thread is the one to continue: `delve -c` takes the newest.
  if (plan.source === "snapshots") {
    logSnapshot(session.workspace, session.thread.id, {
      phase: "rewind",
      wrote: [...restored, ...deleted],
    });
  }
  const db = await openThreadsDb(session.workspace);
  try {
    db.touch(session.thread.id);
  } finally {
    db.close();
  }
  return {
    plan,
    checkpoint_id: String(checkpoint.configurable.checkpoint_id ?? ""),
    restored,
    deleted,
    conflicts,
    skipped,
  };
}

// Writes the target at `file`. A link in the file's place is removed, never written through;
// a deletion removes a file or a link, never a directory.
function put(file: string, target: RestoreTarget): void {
  const stat = fs.lstatSync(file, { throwIfNoEntry: false });
  if (stat?.isDirectory()) throw new Error(`${file} is a directory`);
  if (stat && (target === null || "link" in target || stat.isSymbolicLink())) fs.unlinkSync(file);
  if (target === null) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if ("link" in target) fs.symlinkSync(target.link, file);
  else writeNoFollow(file, target.bytes, target.mode);
}

// The path of a workspace file whose directories are the workspace's own (no link on the
// way); the file itself may be a link, which `put` replaces.
function placeOf(workspace: string, file: string): string | undefined {
  const name = path.basename(file);
  if (!name || name === "." || name === "..") return undefined;
  const dir = path.dirname(file);
  const parent = dir === "." || dir === "/" ? workspace : insideWorkspace(workspace, dir);
  return parent ? path.join(parent, name) : undefined;
}

// Directories left empty by the deletions that held nothing before the turn go too.
function pruneDirs(workspace: string, deleted: string[], keep: Set<string>): void {
  const kept = new Set([...keep].flatMap((f) => parents(f)));
  const dirs = [...new Set(deleted.flatMap((f) => parents(f)))].sort((a, b) => b.length - a.length);
  for (const dir of dirs) {
    if (kept.has(dir)) continue;
    const absolute = insideWorkspace(workspace, dir);
    try {
      if (absolute && fs.readdirSync(absolute).length === 0) fs.rmdirSync(absolute);
    } catch {
      // Not empty or gone: left.
    }
  }
}

function parents(file: string): string[] {
  const out: string[] = [];
  for (let i = file.indexOf("/"); i >= 0; i = file.indexOf("/", i + 1)) out.push(file.slice(0, i));
  return out;
}

// LangGraph time travel: a copy of the checkpoint becomes the thread's newest, so the next
// `send` continues from it. The checkpoint before a first turn still has its start to run,
// and one cut off mid-turn has work left: the copy is settled, so nothing of the undone turn
// runs again. The usage records of the undone turns are carried over: those tokens were spent.
async function forkAt(session: RunSession, timeline: Timeline, at: TurnAt): Promise<ThreadConfig> {
  const copy = await settle(session, await session.agent.updateState(at.fork, undefined));
  const kept = new Set(readUsage(timeline.line[at.before]?.values).map((r) => r.id));
  const spent = readUsage(timeline.line.at(-1)?.values).filter((r) => !kept.has(r.id));
  return spent.length ? writeState(session, copy, { [USAGE_KEY]: spent }) : copy;
}

// A link put in the file's place after the check is not followed (the open fails instead).
function writeNoFollow(file: string, text: string | Buffer, mode?: number): void {
  const { O_WRONLY, O_CREAT, O_TRUNC, O_NOFOLLOW } = fs.constants;
  const fd = fs.openSync(file, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0o644);
  try {
    fs.writeFileSync(fd, text);
    if (mode !== undefined) fs.fchmodSync(fd, mode);
  } finally {
    fs.closeSync(fd);
  }
}
