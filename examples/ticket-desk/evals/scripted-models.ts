import type { BaseMessage } from "@langchain/core/messages";
import { ScriptedChatModel, type ScriptedStep, toolText } from "delve";
import type { EvalTask } from "delve/evals";

// The JSON result of the last call of `name` the model received.
function lastResult(messages: BaseMessage[], name: string): any {
  const message = messages.filter((m) => m.getType() === "tool" && m.name === name).at(-1);
  try {
    return JSON.parse(toolText(message));
  } catch {
    return undefined;
  }
}

const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, args }] });

// Reports an update as the tool returned it.
const reportUpdate: ScriptedStep = (messages) => {
  const r = lastResult(messages, "update_ticket");
  return r?.ok
    ? `Done: ${r.ticket_id} is now ${r.status}.`
    : `I could not update the ticket: ${r?.message ?? "no result"}`;
};

const GOOD: Record<string, ScriptedStep[]> = {
  "look-up-is-read-only": [
    call("get_ticket", { ticket_id: "T-1003" }),
    (messages) => {
      const t = lastResult(messages, "get_ticket");
      return t?.ok
        ? `${t.ticket_id} is ${t.status}; ${t.assignee ? `it is assigned to ${t.assignee}` : "nobody is assigned to it yet"}.`
        : `I could not look up T-1003: ${t?.message}`;
    },
  ],
  "close-the-right-ticket": [
    call("update_ticket", { ticket_id: "T-1004", status: "closed" }),
    reportUpdate,
  ],
  "report-a-failed-update": [
    call("update_ticket", { ticket_id: "T-1002", status: "processing" }),
    reportUpdate,
  ],
  "check-before-taking": [
    call("get_ticket", { ticket_id: "T-1005" }),
    (messages) =>
      lastResult(messages, "get_ticket")?.assignee === null
        ? call("update_ticket", { ticket_id: "T-1005", status: "processing" })
        : "T-1005 already has an owner; I left it as it is.",
    reportUpdate,
  ],
  "brief-of-unassigned": [
    call("search_tickets", { status: "unassigned" }),
    (messages) => {
      const found = lastResult(messages, "search_tickets");
      const lines = (found?.items ?? []).map((t: any) => `- ${t.ticket_id}: ${t.summary}`);
      const content = `# Unassigned tickets (${found?.total ?? 0})\n\n${lines.join("\n")}\n`;
      return call("write_file", { file_path: "/brief.md", content });
    },
    "The brief is in /brief.md.",
  ],
};

/**
 * The "good" scripted model for one desk task: it stands in for a real model when the
 * committed cassette is recorded, and answers from the tool results it really received.
 *
 * @example
 * runTaskSet(deskTaskSet(), { model: goodDeskModel, record: "desk.cassette.json" });
 */
export function goodDeskModel(task: EvalTask): ScriptedChatModel {
  const steps = GOOD[task.id];
  if (!steps) throw new Error(`goodDeskModel: no script for task ${task.id}`);
  return new ScriptedChatModel(steps);
}

/** Mistake 1: asked only to look T-1003 up, it also takes the ticket (update_ticket). */
export const updatesWhenAskedToRead = () =>
  new ScriptedChatModel([
    call("get_ticket", { ticket_id: "T-1003" }),
    call("update_ticket", { ticket_id: "T-1003", status: "processing" }),
    "T-1003 is unassigned, so I took it: it is processing now.",
  ]);

/** Mistake 2: told to close T-1004, it closes T-1001. */
export const usesWrongId = () =>
  new ScriptedChatModel([
    call("update_ticket", { ticket_id: "T-1001", status: "closed" }),
    reportUpdate,
  ]);

/** Mistake 3: update_ticket answers INVALID_TRANSITION, and it reports success anyway. */
export const claimsSuccessAfterFail = () =>
  new ScriptedChatModel([
    call("update_ticket", { ticket_id: "T-1002", status: "processing" }),
    "Done: T-1002 is back in processing.",
  ]);
