import type { BaseMessage } from "@langchain/core/messages";
import { ScriptedChatModel } from "delve";
import { createIncidentAgent, type IncidentContext, IncidentDesk } from "./incidents.js";

// Seed 001's task, offline: "Look up INC-1024; if it is open, move it to investigating",
// once for an operator with update rights and once for a viewer without them.
function operatorModel() {
  const lastResult = (messages: BaseMessage[]) => JSON.parse(String(messages.at(-1)!.content));
  return new ScriptedChatModel([
    { toolCalls: [{ name: "get_incident", args: { incident_id: "INC-1024" } }] },
    (messages) =>
      lastResult(messages).status === "open"
        ? {
            toolCalls: [
              {
                name: "update_incident_status",
                args: { incident_id: "INC-1024", new_status: "investigating" },
              },
            ],
          }
        : "INC-1024 is not open; nothing to do.",
    (messages) => {
      const result = lastResult(messages);
      return result.ok
        ? `INC-1024: ${result.old_status} -> ${result.new_status} (changed: ${result.changed}).`
        : `Not changed: ${result.code}. ${result.hint ?? ""}`;
    },
  ]);
}

const users: IncidentContext[] = [
  { user_id: "viewer-02", role: "viewer", can_update: false },
  { user_id: "operator-01", role: "operator", can_update: true },
];
const desk = new IncidentDesk();
for (const context of users) {
  const agent = createIncidentAgent({
    model: operatorModel(),
    desk,
  });
  const out = await agent.invoke(
    { messages: [{ role: "user", content: "Look up INC-1024; if it is open, investigate it." }] },
    { context },
  );
  console.log(`${context.user_id}: ${String(out.messages.at(-1)!.content)}`);
}
console.log("audit trail:", JSON.stringify(desk.incidents.get("INC-1024")!.history));
