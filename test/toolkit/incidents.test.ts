import type { BaseMessage } from "@langchain/core/messages";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { failureStatusMiddleware, lintTools } from "delve";
import { ScriptedChatModel } from "delve/testing";
import { describe, expect, it } from "vitest";
import {
  createIncidentAgent,
  type IncidentContext,
  IncidentDesk,
  incidentTools,
} from "../../examples/incidents/incidents.js";

const OPERATOR: IncidentContext = {
  user_id: "operator-7f3a9c",
  role: "night-shift-commander",
  can_update: true,
};
const VIEWER: IncidentContext = { user_id: "viewer-51e2", role: "auditor-x9", can_update: false };

function toolsOf(desk = new IncidentDesk()) {
  const [getIncident, update] = incidentTools(desk);
  return { desk, getIncident: getIncident!, update: update! };
}

// Calls update_incident_status as the tool node does, with the run's context in the config.
async function setStatus(
  update: any,
  incident_id: string,
  new_status: string,
  context?: IncidentContext,
) {
  return update.invoke({ incident_id, new_status }, { context });
}

describe("the incident tools of seed 001", () => {
  it("move open -> investigating -> resolved, reporting changed, old_status and new_status", async () => {
    const { desk, update } = toolsOf();
    expect(await setStatus(update, "INC-1024", "investigating", OPERATOR)).toEqual({
      ok: true,
      incident_id: "INC-1024",
      changed: true,
      old_status: "open",
      new_status: "investigating",
    });
    expect(await setStatus(update, "INC-1024", "resolved", OPERATOR)).toMatchObject({
      changed: true,
      old_status: "investigating",
      new_status: "resolved",
    });
    expect(desk.incidents.get("INC-1024")!.history.map((h) => [h.to, h.by])).toEqual([
      ["investigating", "operator-7f3a9c"],
      ["resolved", "operator-7f3a9c"],
    ]);
  });

  it("setting the status an incident already has reports changed: false and records nothing", async () => {
    const { desk, update } = toolsOf();
    const result = await setStatus(update, "INC-1025", "investigating", OPERATOR);
    expect(result).toEqual({
      ok: true,
      incident_id: "INC-1025",
      changed: false,
      old_status: "investigating",
      new_status: "investigating",
    });
    expect(desk.incidents.get("INC-1025")!.history).toEqual([]);
  });

  it("skipping a step or leaving resolved is refused with INVALID_TRANSITION and a hint", async () => {
    const { desk, update } = toolsOf();
    const skip = await setStatus(update, "INC-1024", "resolved", OPERATOR);
    expect(skip).toMatchObject({ ok: false, code: "INVALID_TRANSITION" });
    expect(skip.hint).toMatch(/only next status is investigating/);
    const back = await setStatus(update, "INC-1026", "investigating", OPERATOR);
    expect(back).toMatchObject({ ok: false, code: "INVALID_TRANSITION" });
    expect(back.hint).toMatch(/final/);
    expect(desk.incidents.get("INC-1024")!.status).toBe("open");
    expect(desk.incidents.get("INC-1026")!.status).toBe("resolved");
  });

  it("a user without update rights gets FORBIDDEN and nothing changes, as does a run with no context", async () => {
    const { desk, update } = toolsOf();
    expect(await setStatus(update, "INC-1024", "investigating", VIEWER)).toMatchObject({
      ok: false,
      code: "FORBIDDEN",
    });
    expect(await setStatus(update, "INC-1024", "investigating")).toMatchObject({
      code: "FORBIDDEN",
    });
    expect(desk.incidents.get("INC-1024")!.status).toBe("open");
  });

  it("an unknown incident is NOT_FOUND, for reading and for updating", async () => {
    const { getIncident, update } = toolsOf();
    expect(await getIncident.invoke({ incident_id: "INC-9999" })).toMatchObject({
      ok: false,
      code: "NOT_FOUND",
    });
    expect(await setStatus(update, "INC-9999", "investigating", OPERATOR)).toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("the incident tools pass lintTools with zero findings", () => {
    expect(lintTools(incidentTools(new IncidentDesk()))).toEqual([]);
  });
});

describe("runtime context reaches tools and never the model", () => {
  function scriptedOperator(extraArgs: Record<string, unknown> = {}) {
    return new ScriptedChatModel([
      { toolCalls: [{ name: "get_incident", args: { incident_id: "INC-1024" } }] },
      (messages: BaseMessage[]) => {
        const incident = JSON.parse(String(messages.at(-1)!.content));
        if (incident.status !== "open") return "Nothing to do.";
        return {
          toolCalls: [
            {
              name: "update_incident_status",
              args: { incident_id: "INC-1024", new_status: "investigating", ...extraArgs },
            },
          ],
        };
      },
      (messages: BaseMessage[]) => {
        const result = JSON.parse(String(messages.at(-1)!.content));
        return result.ok && result.changed
          ? `INC-1024 moved from ${result.old_status} to ${result.new_status}.`
          : `Could not change INC-1024: ${result.code}.`;
      },
    ]);
  }

  // Everything the model was handed, on every call: messages, tool schemas, system prompt.
  function serialisedRequests(model: ScriptedChatModel): string {
    return JSON.stringify(
      model.calls.map((call) => ({
        messages: call.messages.map((m) => ({
          type: m.getType(),
          content: m.content,
          tool_calls: (m as any).tool_calls,
          additional_kwargs: m.additional_kwargs,
          response_metadata: m.response_metadata,
        })),
        tools: call.boundTools.map((t: any) => convertToOpenAITool(t)),
      })),
    );
  }

  it("the user id and role given as context are used by the tool but absent from every model request", async () => {
    const desk = new IncidentDesk();
    const model = scriptedOperator();
    const agent = createIncidentAgent({ model, desk, middleware: [failureStatusMiddleware()] });
    const out = await agent.invoke(
      { messages: [{ role: "user", content: "Look up INC-1024; if it is open, investigate it." }] },
      { context: OPERATOR },
    );
    expect(out.messages.at(-1)!.content).toBe("INC-1024 moved from open to investigating.");
    expect(desk.incidents.get("INC-1024")!.history[0]!.by).toBe(OPERATOR.user_id);
    const seen = serialisedRequests(model);
    expect(model.calls).toHaveLength(3);
    expect(seen).toContain("update_incident_status");
    expect(seen).not.toContain(OPERATOR.user_id);
    expect(seen).not.toContain(OPERATOR.role);
    expect(seen).not.toContain("can_update");
  });

  it("the model cannot supply rights: the schema has only the incident and the status, extra arguments are dropped", async () => {
    const model = scriptedOperator({ can_update: true, user_id: "admin" });
    const agent = createIncidentAgent({ model, desk: new IncidentDesk() });
    await agent.invoke(
      { messages: [{ role: "user", content: "Investigate INC-1024." }] },
      { context: VIEWER },
    );
    const update = model.calls[0]!.boundTools.find((t: any) => t.name === "update_incident_status");
    const parameters = (convertToOpenAITool(update as any) as any).function.parameters;
    expect(Object.keys(parameters.properties).sort()).toEqual(["incident_id", "new_status"]);
    // The viewer's call was refused by the tool itself, and the model said so.
    expect(model.calls[2]!.messages.at(-1)!.content).toMatch(/"code":"FORBIDDEN"/);
    const seen = serialisedRequests(model);
    expect(seen).not.toContain(VIEWER.user_id);
    expect(seen).not.toContain(VIEWER.role);
  });
});
