// One compaction of a conversation: bulky old file arguments shortened, then (when still too
// large, or forced) the messages before a recent tail summarised. The middleware runs it on a
// model call; `compactNow` (the interactive `/compact`) runs it on a thread between turns.
import type { BaseMessage } from "@langchain/core/messages";
import type { BackendProtocol } from "../../backends/protocol/protocol.js";
import { profileContextWindow } from "../context-window.js";
import { textTokens } from "../token-estimate.js";
import { findCutoff, type KeepPolicy } from "./cutoff.js";
import { argFilePaths, keepArgs, keptNote } from "./kept-args.js";
import { shortenOldFileArgs } from "./shorten-args.js";
import {
  isSummaryMessage,
  SUMMARY_PROMPT,
  type Summarizer,
  summaryMessage,
  writeSummary,
} from "./summarize.js";
import { appendTranscript } from "./transcript-file.js";

/** What one compaction works with. */
export interface Compactor {
  window: number;
  threshold: number;
  size: (messages: readonly BaseMessage[]) => number;
  summarizer: Summarizer;
  transcript: (messages: readonly BaseMessage[]) => string;
  /** How much recent conversation stays verbatim. */
  keep: KeepPolicy;
  /** Where transcripts and kept arguments are written. */
  backend: BackendProtocol;
  /** True when the named tool is visible to the model. */
  mentions: (toolName: string) => boolean;
}

/** One compaction: what replaces what, by message id. */
export interface Compaction {
  summarizedIds: string[];
  replaced: BaseMessage[];
  summary: BaseMessage | null;
}

/**
 * Shortens old file arguments, then (if the request is still over the threshold, or
 * `force`) summarises the messages before the kept tail. Undefined when nothing changes.
 */
export async function compactMessages(
  messages: readonly BaseMessage[],
  c: Compactor,
  force: boolean,
): Promise<Compaction | undefined> {
  const cut = findCutoff(messages, c.keep, c.window);
  const path = c.transcript(messages);
  const keptAt = argFilePaths(path);
  const shortened = shortenOldFileArgs(messages, cut, (a) => keptNote(a, keptAt(a)));
  const current = shortened?.messages ?? [...messages];
  const old = current.slice(0, cut);
  const nothingToSummarize = old.every(isSummaryMessage);
  if (nothingToSummarize || (!force && c.size(current) < c.threshold)) {
    if (!shortened) return undefined;
    // The file may have changed since: each shortened argument is kept in a file of its own.
    const kept = await keepArgs(c.backend, shortened.args, keptAt);
    const final = shortenOldFileArgs(messages, cut, (a) =>
      kept.has(keptAt(a)) ? keptNote(a, keptAt(a)) : `(${a.value.length} chars, not kept)`,
    )!;
    return { summarizedIds: [], replaced: final.replaced, summary: null };
  }
  // Summarised messages go to the transcript in full; the summarizer reads them shortened.
  const forSummary = shortenOldFileArgs(messages, cut, (a) => `(${a.value.length} chars, omitted)`);
  const summarized = (forSummary?.messages ?? current).slice(0, cut);
  const summary = await writeSummary(
    c.summarizer,
    summarized,
    summaryBudget(c.summarizer, c.window),
  );
  const saved = await appendTranscript(c.backend, path, messages.slice(0, cut));
  const readHint = c.mentions("read_file") ? " (read it with read_file if you need details)" : "";
  return {
    summarizedIds: old.map((m) => m.id).filter((id): id is string => Boolean(id)),
    replaced: [],
    summary: summaryMessage(summary, saved, readHint),
  };
}

/**
 * A compaction applied to a message list: summarised messages removed (by id), shortened
 * ones swapped in (by id), and the summary, if any, first.
 */
export function applyCompaction(messages: readonly BaseMessage[], plan: Compaction): BaseMessage[] {
  const gone = new Set(plan.summarizedIds);
  const swaps = new Map(plan.replaced.map((m) => [m.id, m]));
  const kept = messages
    .filter((m) => !(m.id && gone.has(m.id)))
    .map((m) => (m.id && swaps.get(m.id)) || m);
  return plan.summary ? [plan.summary, ...kept] : kept;
}

/** Two compactions of one call (the threshold's, then an overflow's) as one. */
export function mergeCompactions(first: Compaction | undefined, second: Compaction): Compaction {
  if (!first) return second;
  const ids = [...first.summarizedIds, ...second.summarizedIds];
  if (first.summary?.id) ids.push(first.summary.id);
  const replaced = [...first.replaced, ...second.replaced].filter(
    (m) => !(m.id && ids.includes(m.id)),
  );
  return { summarizedIds: ids, replaced, summary: second.summary ?? first.summary };
}

// Tokens of transcript per summarizer request: 70% of its window, less the instructions.
function summaryBudget(summarizer: Summarizer, window: number): number {
  const own = profileContextWindow(summarizer) ?? window;
  return Math.max(500, Math.floor(own * 0.7) - SUMMARY_PROMPT_TOKENS);
}

const SUMMARY_PROMPT_TOKENS = textTokens(SUMMARY_PROMPT) + 100;
