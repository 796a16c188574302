// A thread's steps read from its checkpoint tuples (the checkpointer's list, the history
// getStateHistory walks) in one pass: each checkpoint's pending writes are what the next one
// added, so no checkpoint's whole state is rebuilt. getStateHistory rebuilds every one, which
// grows with the square of the thread's length (2 s of CPU at 200 steps; this: 50 ms).
// Checkpoints whose additions are not in the writes (the task given as raw input, a state
// written by updateState) are read whole with getState, as is the last one.
import { coerceMessageLikeToMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import type { ModelPrice } from "../run/prices.js";
import { readUsage } from "../run/usage.js";
import {
  messageView,
  nestSubagents,
  type Snapshot,
  type StepView,
  type UsageView,
  usageView,
} from "./thread-view.js";

/** The steps of a thread (oldest first) and its last snapshot, as the viewer shows them. */
export interface ThreadHistory {
  steps: StepView[];
  last: Snapshot | undefined;
}

type Written = { messages: any[]; usage: any[]; whole: boolean };

// A step's additions from the writes of the checkpoint before it; `whole` when they cannot
// be used as they are (a message without an id: the raw input the reducer gives one to).
function writtenBy(tuple: any): Written {
  const out: Written = { messages: [], usage: [], whole: false };
  for (const [, channel, value] of tuple?.pendingWrites ?? []) {
    const values = Array.isArray(value) ? value : [value];
    if (channel === "messages") {
      for (const m of values) {
        if (!m?.id && !m?.kwargs?.id) out.whole = true;
        else
          out.messages.push(typeof m?.getType === "function" ? m : coerceMessageLikeToMessage(m));
      }
    } else if (channel === "usage") out.usage.push(...values);
  }
  return out;
}

const idOf = (config: any) => String(config?.configurable?.checkpoint_id ?? "");

// The newest checkpoint's line, oldest first: a rewound thread's undone branch is left out,
// as readHistory does for getStateHistory.
function lineOf(newestFirst: any[]): any[] {
  const byId = new Map(newestFirst.map((t) => [idOf(t.config), t]));
  const line: any[] = [];
  for (let t = newestFirst[0]; t && line.length < byId.size; t = byId.get(idOf(t.parentConfig))) {
    line.push(t);
  }
  return line.reverse();
}

/** Reads a thread's steps through `checkpointer.list` and `agent.getState`. */
export async function readThreadHistory(
  checkpointer: BaseCheckpointSaver,
  agent: any,
  threadId: string,
  threadModel: string,
  prices?: Record<string, ModelPrice>,
): Promise<ThreadHistory> {
  const tuples: any[] = [];
  for await (const t of checkpointer.list({
    configurable: { thread_id: threadId, checkpoint_ns: "" },
  })) {
    tuples.push(t);
  }
  tuples.splice(0, tuples.length, ...lineOf(tuples));
  const last: Snapshot | undefined = tuples.length
    ? await agent.getState({ configurable: { thread_id: threadId } })
    : undefined;
  const seenMessages = new Set<string>();
  const seenUsage = new Set<string>();
  const calls = new Map<string, { name: string; args: any }>();
  let before: Written = { messages: [], usage: [], whole: false };
  let previousAt: string | undefined;
  const steps: StepView[] = [];
  for (const [i, t] of tuples.entries()) {
    const id = String(t.config?.configurable?.checkpoint_id ?? "");
    const isLast = i === tuples.length - 1;
    let { messages, usage } = before;
    if (isLast || before.whole || t.metadata?.source === "update") {
      const state = isLast
        ? last
        : await agent.getState({ configurable: { thread_id: threadId, checkpoint_id: id } });
      messages = state?.values?.messages ?? [];
      usage = readUsage(state?.values ?? {});
    }
    const added = messages.filter((m: any) => {
      const key = String(m?.id ?? "");
      if (!key || seenMessages.has(key)) return false;
      seenMessages.add(key);
      return true;
    });
    const records: UsageView[] = [];
    for (const r of readUsage({ usage })) {
      const key = r.id ?? JSON.stringify(r);
      if (seenUsage.has(key)) continue;
      seenUsage.add(key);
      records.push(usageView(r, threadModel, prices));
    }
    const views = added.map(messageView);
    nestSubagents(views, records, calls);
    const created = String(t.checkpoint?.ts ?? "");
    steps.push({
      checkpoint_id: id,
      parent_id: t.parentConfig?.configurable?.checkpoint_id ?? null,
      step: Number(t.metadata?.step ?? 0),
      source: String(t.metadata?.source ?? ""),
      created_at: created,
      duration_ms: previousAt && created ? Date.parse(created) - Date.parse(previousAt) : null,
      messages: views,
      usage: records,
    });
    previousAt = created;
    before = writtenBy(t);
  }
  return { steps, last };
}
