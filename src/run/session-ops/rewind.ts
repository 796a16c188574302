// Rewind: the thread goes back to the checkpoint before a turn (a LangGraph fork of it, under
// the same thread id), and the workspace files the agent changed since go back with it.
import type { RunSession } from "../engine.js";
import type { TurnPoint } from "./turns.js";

/** What a rewind does to one file the agent changed after the turn began. */
export interface RewindFile {
  /** Workspace-relative path. */
  path: string;
  /**
   * `restore`: written back with its content at the turn; `delete`: the agent created it
   * after the turn, so it goes.
   */
  action: "restore" | "delete";
  /**
   * Set when rewind leaves the file alone unless forced: `changed_on_disk` when its content
   * on disk is not what the agent last wrote (someone changed it since), `unknown` when its
   * content at the turn cannot be rebuilt (an overwrite of a file the thread never read).
   */
  conflict?: "changed_on_disk" | "unknown";
  /** Unified diff (jsdiff) from the file on disk now to what rewind leaves. */
  diff: string;
}

/** What `rewind` would undo, for showing before it does. */
export interface RewindPlan {
  /** The turn rewound to: it and every later one are undone. */
  turn: TurnPoint;
  /** The conversation messages that leave the thread, oldest first. */
  dropped: Array<{ role: string; text: string }>;
  /** The files rewind changes (or would, if forced), sorted by path. */
  files: RewindFile[];
  /** The whole plan as text: the turns undone, then the diff of every file. */
  text: string;
}

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
}

/**
 * What rewinding to `turn` (a `TurnPoint.turn`) would undo: the conversation dropped and the
 * diff of every file the agent wrote or edited since. Changes nothing. Throws a RangeError
 * for a turn the thread does not have.
 */
export async function previewRewind(session: RunSession, turn: number): Promise<RewindPlan> {
  void session;
  void turn;
  throw new Error("previewRewind: not implemented yet");
}

/**
 * Rewinds the thread to the checkpoint before `turn`: the next `send` continues from there
 * (the thread id stays, so `delve -c` continues the rewound thread), and the files the agent
 * changed since are restored to their content then (deleted when created after). Files the
 * agent did not change are never touched; a conflict is reported and left alone unless
 * `force`. Refuses (RangeError) a turn the thread does not have, and a thread waiting on an
 * approval is rewound like any other (the pause is dropped with the turn).
 */
export async function rewind(
  session: RunSession,
  turn: number,
  options: RewindOptions = {},
): Promise<RewindResult> {
  void session;
  void turn;
  void options;
  throw new Error("rewind: not implemented yet");
}
