// A thread's user turns, read from its checkpoint history: where each one starts, so rewind
// can go back to the checkpoint before it.
import type { RunSession } from "../engine.js";
import { readTimeline } from "./timeline.js";

/** One user turn of a thread (a task or follow-up sent to it). */
export interface TurnPoint {
  /** 1 for the thread's first task, 2 for the first follow-up, ... */
  turn: number;
  /** The checkpoint before the turn: rewinding to this turn goes back to it. */
  checkpoint_id: string;
  /** The text the user sent. */
  task: string;
  /** When the turn started (ISO 8601, the checkpoint's time). */
  created_at: string;
}

/** The thread's user turns, oldest first (empty for a thread that has run nothing yet). */
export async function listTurns(session: RunSession): Promise<TurnPoint[]> {
  const { turns } = await readTimeline(session);
  return turns.map(({ before: _, fork: __, ...turn }) => turn);
}
