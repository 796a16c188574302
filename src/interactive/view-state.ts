// What the interactive view renders: the state the controller replaces on each change.
import type { Entry, Line } from "./lines.js";
import type { StatusInfo } from "./transcript.js";

/** A yes/no question on screen (an approval, or /rewind's confirmation). */
export interface Question {
  title: Line[];
  body: Line[];
  choices: Line[];
  /** "reason": the reviewer types why the call is rejected; "answer": an ask_user answer. */
  mode: "choose" | "reason" | "answer";
}

/** Everything the view renders; replaced (never mutated) on each change. */
export interface ViewState {
  entries: Entry[];
  /** The assistant text streaming in now, below the transcript; its whole text replaces it. */
  live?: Line[];
  busy: boolean;
  startedAt: number;
  question?: Question;
  notice?: string;
  status: StatusInfo;
  threadId: string;
  /** Set by /quit and a second Ctrl-C: the view unmounts. */
  exiting?: boolean;
}
