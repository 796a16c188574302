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
