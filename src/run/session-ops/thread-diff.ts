// Everything a thread changed in the workspace: each file from before the thread's first
// change to it to its latest content, from the workspace snapshots (or, for a thread run
// before them, the checkpoint history's write_file and edit_file calls).
import type { RunSession } from "../engine.js";
import { diffFiles, type FileDiff } from "../step-files.js";
import { diskThreadDiff } from "./disk-plan.js";
import { readTimeline } from "./timeline.js";

/** What `threadDiff` returns. */
export interface ThreadDiff {
  /** One entry per file the thread wrote or edited, sorted by path. */
  files: FileDiff[];
  /** The diffs as one unified-diff text ("" when the thread changed nothing). */
  text: string;
}

/**
 * Everything the thread's runs changed on disk (any tool: file tools, `execute`, subagents),
 * from before its first run to what its last run left, as unified diffs; a thread run before
 * snapshots shows its write_file and edit_file changes.
 */
export async function threadDiff(session: RunSession): Promise<ThreadDiff> {
  const timeline = await readTimeline(session);
  const { files } = timeline;
  const changed =
    diskThreadDiff(session, timeline) ?? diffFiles(files[0] ?? {}, files.at(-1) ?? {});
  return { files: changed, text: changed.map((f) => f.diff).join("") };
}
