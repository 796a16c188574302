// What a slash command may do to the session it runs in: the controller's side the handlers
// see, kept apart so the handlers do not import the controller that runs them.
import type { RunSession, SessionOptions } from "../run/engine.js";
import type { Line } from "./lines.js";

/** The interactive controller as the slash commands use it. */
export interface SlashHost {
  /** The session the next turn runs on (replaced by `reopen`). */
  readonly session: RunSession;
  /** Appends lines to the transcript. */
  write(lines: Line[]): void;
  /** A one-line notice under the prompt. */
  notice(text: string): void;
  /** Asks y/n; `onYes` runs on y. */
  confirm(title: Line[], body: Line[], onYes: () => Promise<void>): void;
  /** Shows the spinner while `run` works. */
  working(run: () => Promise<void> | void): Promise<void>;
  /** Replaces the session (same thread with new settings, another thread, or a new one). */
  reopen(extra: Partial<SessionOptions>, fresh?: boolean): Promise<void>;
  /** Ends the session. */
  quit(): void;
}
