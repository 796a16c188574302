// The typed events of a run (version 1): what `delve run --output stream-json` prints one a
// line, and what the interactive terminal and the viewer render. Every name here is public API.

/** How a run ended. */
export type RunStatus = "completed" | "paused" | "failed" | "limit";

/**
 * Which limit ended a run with status `limit`: a CLI flag, `agent` (a `limits` budget,
 * the loop guard or the recursion limit; the error names it), or `interrupted` (the caller's
 * `signal`, e.g. Esc in the interactive terminal).
 */
export type RunLimit = "max_turns" | "timeout" | "max_cost" | "agent" | "interrupted";

/** Tokens of a run or a thread, summed. */
export interface RunUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** One decision a reviewer may give a paused call. */
export type RunDecisionType = "approve" | "edit" | "reject";

/** A call waiting for a human: everything `delve approve` needs. */
export interface PendingCall {
  call_id: string;
  tool: string;
  args: Record<string, unknown>;
  description: string;
  decisions: RunDecisionType[];
  /** The narrowest rule that would let this call through without asking. */
  suggested_rule?: string;
}

/**
 * An `ask_user` question a paused run waits on: everything `delve answer` needs. Listed
 * apart from `PendingCall`s (which are approvals) in `RunResult.questions`.
 */
export interface RunQuestion {
  /** The `ask_user` tool call (a subagent's included). */
  call_id: string;
  question: string;
  /** Suggested answers; a free-text answer is accepted too. */
  choices?: string[];
  /** True when several choices may be given. */
  multiple?: boolean;
  /** Why the last answer could not be used (nothing was answered; answer again). */
  error?: string;
}

/** The last event of every run. */
export interface RunResult {
  thread_id: string;
  status: RunStatus;
  /** The agent's last text (empty when it ended without one). */
  answer: string;
  /** Model calls of the main agent in this run. */
  turns: number;
  /** Tool calls started in this run (subagents' included). */
  tool_calls: number;
  /** Tokens of the whole thread, every model call (subagents and the summarizer included). */
  usage: RunUsage;
  /** USD for the whole thread; null when a model's price is unknown. */
  cost_usd: number | null;
  duration_ms: number;
  /** For `limit`: which one. */
  limit?: RunLimit;
  /** For `paused`: the calls waiting for an approval. */
  pending?: PendingCall[];
  /** For `paused`: the `ask_user` questions waiting for an answer. */
  questions?: RunQuestion[];
  /** For `failed` (and `limit`): what happened. */
  error?: string;
}

/**
 * One event of a run; `v` is the schema version, `type` the kind. A subagent's `text_delta`,
 * `text`, `tool_call`, `tool_result` and `usage` carry `task`: the id of the `task` call its
 * run answers (two subagents of one name running in parallel tell apart by it).
 */
export type RunEvent =
  | {
      v: 1;
      type: "thread";
      thread_id: string;
      resumed: boolean;
      workspace: string;
      model: string;
      sandbox: string;
      approval: string;
    }
  /**
   * A piece of the text a model is writing, as it arrives (only when the run asked for them:
   * `RunLimits.textDeltas`, `--include-partial-messages`). The message's whole text still
   * follows once as a `text` event: a reader that ignores deltas misses nothing. `restart`:
   * the model call was retried after it failed mid-answer, and `text` replaces the pieces of
   * this message so far.
   */
  | { v: 1; type: "text_delta"; agent: string; task?: string; text: string; restart?: true }
  | { v: 1; type: "text"; agent: string; task?: string; text: string }
  | {
      v: 1;
      type: "tool_call";
      agent: string;
      task?: string;
      call_id: string;
      tool: string;
      args: unknown;
    }
  | {
      v: 1;
      type: "tool_result";
      agent: string;
      task?: string;
      call_id: string;
      tool: string;
      status: "success" | "error";
      output: string;
    }
  | {
      v: 1;
      type: "file_changed";
      call_id: string;
      path: string;
      op: "create" | "edit" | "delete";
      diff: string;
    }
  | ({ v: 1; type: "approval_required"; thread_id: string } & PendingCall)
  | ({ v: 1; type: "question_required"; thread_id: string } & RunQuestion)
  | {
      v: 1;
      type: "usage";
      agent: string;
      task?: string;
      model: string;
      input: number;
      output: number;
      cache_read?: number;
      cache_write?: number;
      cost_usd: number | null;
    }
  | {
      v: 1;
      type: "subagent";
      phase: "start" | "end";
      call_id: string;
      name: string;
      status?: "success" | "error";
    }
  | ({ v: 1; type: "result" } & RunResult);

/** The `type`s of run events, in the order a reader usually meets them. */
export const RUN_EVENT_TYPES = [
  "thread",
  "text_delta",
  "text",
  "tool_call",
  "tool_result",
  "file_changed",
  "approval_required",
  "question_required",
  "usage",
  "subagent",
  "result",
] as const satisfies readonly RunEvent["type"][];

/**
 * A reviewer's answer to one pending call, as `delve approve` and the UIs send it, or the
 * user's answer to one question (`delve answer`). An `answer` gives free `text`, `choices`
 * (each one of the question's), or both; a single-answer question takes exactly one.
 */
export type RunDecision =
  | { type: "approve" }
  | { type: "reject"; message?: string }
  | { type: "edit"; args: Record<string, unknown> }
  | { type: "answer"; text?: string; choices?: string[] };
