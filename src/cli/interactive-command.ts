import type { ParsedArgs } from "./args.js";
import { UsageError } from "./args.js";
import { runSessionOptions } from "./session-flags.js";

/** `delve`, `delve -c`, `delve --thread ID` (and `delve run` without a task, in a terminal). */
export async function interactiveCommand(args: ParsedArgs): Promise<number> {
  if (!process.stdin.isTTY) {
    throw new UsageError(
      'the interactive session needs a terminal; without one give the task: delve run "..." (or delve run -c).',
    );
  }
  // The human model reads its replies from this terminal, which the session draws on.
  if (args.values.model === "human") {
    throw new UsageError(
      '--model human reads its replies from the terminal: give the task, delve run "..." --model human (or --human-io DIR).',
    );
  }
  const { startInteractive } = await import("../interactive/index.js");
  // Its diagnostics go to the transcript: stderr lines would tear the screen.
  const { notice: _stderr, ...options } = runSessionOptions(args);
  return startInteractive(options);
}
