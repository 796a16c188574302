// `/compact`: summarizes the thread's conversation now, with the summarization middleware's own
// logic, and stores the result in the thread as automatic summarization does.
import type { RunSession } from "../engine.js";

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

/**
 * Summarizes the thread's older messages now (keeping the recent tail the middleware keeps),
 * writing the transcript and the summary message into the thread's state, so the next `send`
 * continues from the shorter conversation. Refuses (Error) a thread that is running or waits
 * on an approval.
 */
export async function compactNow(session: RunSession): Promise<CompactResult> {
  void session;
  throw new Error("compactNow: not implemented yet");
}
