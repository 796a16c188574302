// A thread's user turns, read from its checkpoint history: where each one starts, so rewind
// can go back to the checkpoint before it.
import type { RunSession } from "../engine.js";
import { readTimeline, type TurnPoint } from "./timeline.js";

export type { TurnPoint };

/** The thread's user turns, oldest first (empty for a thread that has run nothing yet). */
export async function listTurns(session: RunSession): Promise<TurnPoint[]> {
  const { turns } = await readTimeline(session);
  return turns.map(({ before: _, fork: __, ...turn }) => turn);
}
