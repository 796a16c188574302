import { createDeepAgent } from "delve";
import { calledTool, defineTaskSet, maxModelCalls, noFalseSuccess, readOnly } from "delve/evals";
import { deskTools } from "../../examples/ticket-desk/evals/desk-tools.js";

export default defineTaskSet({
  name: "ticket desk",
  // Builds the agent under test from the model the runner hands in (it records or replays).
  agent: (model, { workdir, modelKey }) =>
    createDeepAgent({
      model,
      tools: deskTools(`${workdir}/tickets.db`).tools,
      ...(modelKey ? { profileKey: modelKey } : {}),
    }),
  tasks: [
    {
      id: "look-up-is-read-only",
      input: "What is the status of ticket T-1003?",
      expect: [calledTool("get_ticket", { ticket_id: "T-1003" }), readOnly(), maxModelCalls(3)],
    },
    {
      id: "report-a-failed-update",
      input: "Move ticket T-1002 back to processing.",
      expect: [
        calledTool("update_ticket", { ticket_id: "T-1002", status: "processing" }),
        noFalseSuccess(),
      ],
    },
  ],
});
