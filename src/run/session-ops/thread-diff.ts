// Everything a thread changed in the workspace: each file from before the thread's first
// change to it to its latest content, from the checkpoint history.
import type { RunSession } from "../engine.js";
import { diffFiles, type FileDiff } from "../step-files.js";
import { readTimeline } from "./timeline.js";

/** What `threadDiff` returns. */
export interface ThreadDiff {
  /** One entry per file the thread wrote or edited, sorted by path. */
  files: FileDiff[];
  /** The diffs as one unified-diff text ("" when the thread changed nothing). */
  text: string;
}

/** Everything the thread's agent changed with write_file and edit_file, as unified diffs. */
export async function threadDiff(session: RunSession): Promise<ThreadDiff> {
  const { files } = await readTimeline(session);
  const changed = diffFiles(files[0] ?? {}, files.at(-1) ?? {});
  return { files: changed, text: changed.map((f) => f.diff).join("") };
}
