// `/compact`: summarizes the thread's conversation now, with the summarization middleware's own
// logic, and stores the result in the thread as automatic summarization does.
import { randomBytes } from "node:crypto";
import { type BaseMessage, RemoveMessage } from "@langchain/core/messages";
import { REMOVE_ALL_MESSAGES } from "@langchain/langgraph";
import { contextWindowAtCall, DEFAULT_CONTEXT_WINDOW } from "../../context/context-window.js";
import { applyCompaction, compactMessages } from "../../context/summarization/compaction.js";
import type { KeepPolicy } from "../../context/summarization/cutoff.js";
import type { Summarizer } from "../../context/summarization/summarize.js";
import { TRANSCRIPT_DIR, transcriptPath } from "../../context/summarization/transcript-file.js";
import { messageTokens } from "../../context/token-estimate.js";
import { LazyChatModel } from "../../models/lazy-chat-model.js";
import { type UsageScope, withUsageScope } from "../../models/usage-scope.js";
import type { RunSession } from "../engine.js";
import { USAGE_KEY } from "../usage.js";
import { ThreadFilesBackend } from "./thread-files-backend.js";
import { writeState } from "./write-state.js";

/** The conversation's size at one moment. */
export interface ConversationSize {
  messages: number;
  /** Estimated tokens of the messages (the summarization middleware's estimate). */
  tokens: number;
}

/** What `compactNow` did. */
export interface CompactResult {
  /** False when there was nothing old enough to summarize (the thread is unchanged). */
  compacted: boolean;
  before: ConversationSize;
  after: ConversationSize;
  /** Messages replaced by the summary. */
  summarized: number;
  /** Where the summarized messages' full transcript was saved (in the thread's files). */
  transcript?: string;
}

/** Options of `compactNow`. */
export interface CompactOptions {
  /** How much recent conversation stays verbatim. Default: the last 2 messages. */
  keep?: KeepPolicy;
}

/** What `/compact` keeps verbatim by default: the last exchange's end. */
export const COMPACT_NOW_KEEP: KeepPolicy = { messages: 2 };

const sizeOf = (messages: readonly BaseMessage[]): ConversationSize => ({
  messages: messages.length,
  tokens: messages.reduce((sum, m) => sum + messageTokens(m), 0),
});

/**
 * Summarizes the thread's older messages now (keeping the recent tail), writing the
 * transcript and the summary message into the thread's state as the summarization
 * middleware does, so the next `send` continues from the shorter conversation. The summary's
 * tokens are recorded as the "summarizer"'s usage. Refuses (Error) a thread that is mid-turn
 * (running, or waiting on an approval).
 */
export async function compactNow(
  session: RunSession,
  options: CompactOptions = {},
): Promise<CompactResult> {
  const state = await session.agent.getState(session.config);
  if ((state?.next ?? []).length) {
    throw new Error(
      "the thread is in the middle of a turn (running, or waiting on an approval): compact it when the turn has ended.",
    );
  }
  const messages: BaseMessage[] = state?.values?.messages ?? [];
  const before = sizeOf(messages);
  const model =
    typeof session.model === "string" ? new LazyChatModel(session.model) : session.model;
  const backend = new ThreadFilesBackend(state?.values?.files);
  const window = (await contextWindowAtCall(model)) ?? DEFAULT_CONTEXT_WINDOW;
  const scope: UsageScope = { records: [] };
  const plan = await withUsageScope(scope, () =>
    compactMessages(
      messages,
      {
        keep: options.keep ?? COMPACT_NOW_KEEP,
        backend,
        mentions: () => true,
        window,
        threshold: 0,
        size: (ms) => sizeOf(ms).tokens,
        summarizer: model as Summarizer,
        transcript: (ms) => transcriptPath(TRANSCRIPT_DIR, session.config, ms, undefined),
      },
      true,
    ),
  );
  if (!plan?.summary) return { compacted: false, before, after: before, summarized: 0 };
  const compacted = applyCompaction(messages, plan);
  const usage = scope.records.map((r) => ({ ...r, id: randomBytes(6).toString("base64url") }));
  await writeState(session, session.config, {
    messages: [new RemoveMessage({ id: REMOVE_ALL_MESSAGES }), ...compacted],
    files: backend.changes,
    ...(usage.length ? { [USAGE_KEY]: usage } : {}),
  });
  const transcript = plan.summary.additional_kwargs?.delve_transcript;
  return {
    compacted: true,
    before,
    after: sizeOf(compacted),
    summarized: plan.summarizedIds.length,
    ...(typeof transcript === "string" ? { transcript } : {}),
  };
}
