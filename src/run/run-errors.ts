// The engine's errors that the CLI and the viewer turn into exit codes and HTTP answers.

/** A thread id that the workspace does not have (or no thread at all for `-c`). */
export class UnknownThreadError extends Error {
  constructor(readonly threadId: string) {
    super(
      threadId
        ? `no thread ${threadId} in this workspace: delve threads list shows them.`
        : "this workspace has no thread to continue yet: start one with delve run TASK.",
    );
    this.name = "UnknownThreadError";
  }
}

/** Another process decided this pause (its approvals or its questions) first. */
export class AlreadyDecidedError extends Error {
  constructor(readonly threadId: string) {
    super(`already decided: another process answered the pause of thread ${threadId} first.`);
    this.name = "AlreadyDecidedError";
  }
}

/** A fork asked for at a checkpoint the thread does not have, or one that cannot take a message. */
export class ForkPointError extends Error {
  constructor(
    readonly threadId: string,
    readonly checkpointId: string,
    reason: "unknown" | "calls_pending",
  ) {
    super(
      reason === "unknown"
        ? `no checkpoint ${checkpointId} in thread ${threadId}.`
        : `checkpoint ${checkpointId} of thread ${threadId} has tool calls without results: fork from the step that holds their results, or from before the model call.`,
    );
    this.name = "ForkPointError";
  }
}
