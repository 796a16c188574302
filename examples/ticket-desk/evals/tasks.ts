// The ticket desk's agent tests: the three questions (right tool, right arguments, a result
// that can be trusted) as a fixed task set. Run it with `delve eval`:
//   npx delve eval examples/ticket-desk/evals/tasks.ts --replay examples/ticket-desk/evals/desk.cassette.json
import path from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import { createDeepAgent } from "delve";
import {
  answerMatches,
  calledInOrder,
  calledTool,
  defineTaskSet,
  maxModelCalls,
  maxToolErrors,
  noFalseSuccess,
  noMutationBeforeApproval,
  notCalledTool,
  readOnly,
  wroteFile,
} from "delve/evals";
import { seedTicketDb } from "../database.js";
import { deskTools } from "./desk-tools.js";

const SYSTEM_PROMPT =
  "You are a support desk assistant. Ticket data comes only from the ticket tools. Change a ticket only when asked to, and report exactly what the tools returned.";

/** What a variant of the desk agent changes, for tests that show a check failing. */
export interface DeskVariant {
  /** Gate update_ticket behind an approval. Default true. */
  approval?: boolean;
  /** Replace get_ticket's description (to show a replay noticing the change). */
  getTicketDescription?: string;
}

/**
 * The ticket desk task set. Each run gets its own freshly seeded database in the run's
 * temporary directory, so a task that changes a ticket never leaks into another.
 *
 * @example
 * const report = await runTaskSet(deskTaskSet(), { replay: "desk.cassette.json" });
 */
export function deskTaskSet(variant: DeskVariant = {}) {
  const open = new Map<string, () => void>();
  return defineTaskSet({
    name: "ticket desk",
    agent: (model, { workdir, modelKey }) => {
      const dbPath = path.join(workdir, "tickets.db");
      seedTicketDb(dbPath);
      const desk = deskTools(dbPath, { get_ticket: variant.getTicketDescription });
      open.set(workdir, desk.close);
      return createDeepAgent({
        model,
        tools: desk.tools,
        systemPrompt: SYSTEM_PROMPT,
        ...(variant.approval === false ? {} : { interruptOn: { update_ticket: true } }),
        checkpointer: new MemorySaver(),
        ...(modelKey ? { profileKey: modelKey } : {}),
      });
    },
    cleanup: ({ workdir }) => {
      open.get(workdir)?.();
      open.delete(workdir);
    },
    tasks: [
      {
        // Question 1: asked only to look something up, the agent changes nothing.
        id: "look-up-is-read-only",
        input: "What is the status of ticket T-1003, and who is it assigned to?",
        expect: [
          calledTool("get_ticket", { ticket_id: "T-1003" }),
          readOnly(),
          answerMatches(/unassigned/i),
          maxModelCalls(3),
        ],
      },
      {
        // Question 2: the right ticket id and the right target status.
        id: "close-the-right-ticket",
        input: "Ticket T-1004 (the double charge) is resolved. Close it.",
        expect: [
          calledTool("update_ticket", { ticket_id: "T-1004", status: "closed" }),
          noMutationBeforeApproval(),
          maxToolErrors(0),
          maxModelCalls(4),
        ],
      },
      {
        // Question 3: after a fail() result the answer reports it, not a success.
        id: "report-a-failed-update",
        input: "Move ticket T-1002 back to processing: the customer wrote again.",
        expect: [
          calledTool("update_ticket", { ticket_id: "T-1002", status: "processing" }),
          noFalseSuccess(),
          maxToolErrors(1),
        ],
      },
      {
        // Call order: check the ticket before taking it.
        id: "check-before-taking",
        input: "Check ticket T-1005 and, if nobody owns it yet, set it to processing.",
        expect: [
          calledInOrder("get_ticket", "update_ticket"),
          calledTool("update_ticket", { ticket_id: "T-1005", status: "processing" }),
          noMutationBeforeApproval(),
        ],
      },
      {
        // A brief in a file, without touching any ticket.
        id: "brief-of-unassigned",
        input: "Write a brief of all unassigned tickets to /brief.md.",
        expect: [
          calledTool("search_tickets", { status: "unassigned" }),
          notCalledTool("update_ticket"),
          wroteFile("/brief.md", /T-1003[\s\S]*T-1005[\s\S]*T-1007/),
        ],
      },
    ],
  });
}

export default deskTaskSet();
