// Everything a thread changed in the workspace: each file from before the thread's first
// change to it to its latest content, from the checkpoint history.

import type { RunSession } from "../engine.js";
import type { FileDiff } from "../step-files.js";

/** What `threadDiff` returns. */
export interface ThreadDiff {
  /** One entry per file the thread wrote or edited, sorted by path. */
  files: FileDiff[];
  /** The diffs as one unified-diff text ("" when the thread changed nothing). */
  text: string;
}

/** Everything the thread's agent changed with write_file and edit_file, as unified diffs. */
export async function threadDiff(session: RunSession): Promise<ThreadDiff> {
  void session;
  throw new Error("threadDiff: not implemented yet");
}
