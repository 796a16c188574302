import { type StructuredToolInterface, tool } from "@langchain/core/tools";
import { type CreateDeepAgentOptions, createDeepAgent, fail, ok } from "delve";
import { z } from "zod";

/** What the application tells the tools about the user; the model never sees or fills it. */
export const IncidentContext = z.object({
  user_id: z.string(),
  role: z.string(),
  can_update: z.boolean(),
});
export type IncidentContext = z.infer<typeof IncidentContext>;

export const INCIDENT_STATUSES = ["open", "investigating", "resolved"] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

// The only moves allowed: open -> investigating -> resolved. Resolved is final.
const NEXT: Record<IncidentStatus, readonly IncidentStatus[]> = {
  open: ["investigating"],
  investigating: ["resolved"],
  resolved: [],
};

/** One incident, with an audit trail kept for the application (not returned to the model). */
export interface Incident {
  title: string;
  status: IncidentStatus;
  history: Array<{ from: IncidentStatus; to: IncidentStatus; by: string; at: string }>;
}

/** A tiny incident system standing in for a real one (seed 001's INCIDENTS dictionary). */
export class IncidentDesk {
  readonly incidents = new Map<string, Incident>();

  constructor(seed: Record<string, { title: string; status: IncidentStatus }> = DEFAULT_INCIDENTS) {
    for (const [id, incident] of Object.entries(seed)) {
      this.incidents.set(id, { ...incident, history: [] });
    }
  }
}

const DEFAULT_INCIDENTS: Record<string, { title: string; status: IncidentStatus }> = {
  "INC-1024": { title: "API response latency is rising", status: "open" },
  "INC-1025": { title: "Nightly export job failed", status: "investigating" },
  "INC-1026": { title: "Login page returned 502 for ten minutes", status: "resolved" },
};

const incidentId = z
  .string()
  .regex(/^INC-\d{4}$/)
  .describe("Incident id such as INC-1024");

/**
 * The two incident tools of seed 001, over one desk: `get_incident` reads,
 * `update_incident_status` moves an incident along open -> investigating -> resolved. The
 * permission comes from the runtime context (`can_update`), never from the arguments.
 *
 * @example
 * const [getIncident, updateIncidentStatus] = incidentTools(new IncidentDesk());
 */
export function incidentTools(desk: IncidentDesk): StructuredToolInterface[] {
  const getIncident = tool(
    async ({ incident_id }: { incident_id: string }) => {
      const incident = desk.incidents.get(incident_id);
      if (!incident) return notFound(incident_id);
      return ok({ incident_id, title: incident.title, status: incident.status });
    },
    {
      name: "get_incident",
      description:
        "Look up one incident by id: its title and status (open, investigating or resolved). Read-only: it never changes the incident. Not for changing the status: use update_incident_status.",
      schema: z.object({ incident_id: incidentId }),
    },
  );

  const updateIncidentStatus = tool(
    async (
      { incident_id, new_status }: { incident_id: string; new_status: IncidentStatus },
      config: any,
    ) => {
      // Rights come from the application, checked before anything else (seed 001).
      const context = IncidentContext.safeParse(config?.context);
      if (!context.success || !context.data.can_update) {
        return fail({
          code: "FORBIDDEN",
          message: "The current user may not change incident status.",
          hint: "Tell the user that someone with update rights has to make this change.",
        });
      }
      const incident = desk.incidents.get(incident_id);
      if (!incident) return notFound(incident_id);
      const old_status = incident.status;
      if (old_status === new_status) {
        return ok({ incident_id, changed: false, old_status, new_status });
      }
      if (!NEXT[old_status].includes(new_status)) {
        const next = NEXT[old_status];
        return fail({
          code: "INVALID_TRANSITION",
          message: `${incident_id} is ${old_status}; it cannot move to ${new_status}.`,
          hint: next.length
            ? `From ${old_status} the only next status is ${next.join(", ")}.`
            : `${old_status} is final: the incident cannot change status any more.`,
        });
      }
      incident.status = new_status;
      incident.history.push({
        from: old_status,
        to: new_status,
        by: context.data.user_id,
        at: new Date().toISOString(),
      });
      return ok({ incident_id, changed: true, old_status, new_status });
    },
    {
      name: "update_incident_status",
      description:
        "Move one incident to a new status. Allowed steps: open -> investigating -> resolved; any other step is refused (INVALID_TRANSITION). Setting the status it already has changes nothing (changed: false). Returns changed, old_status and new_status. Only when the user asked for the change; check the incident with get_incident first. Needs update rights (FORBIDDEN otherwise).",
      schema: z.object({
        incident_id: incidentId,
        new_status: z.enum(["investigating", "resolved"]).describe("The status to move to"),
      }),
    },
  );
  return [getIncident, updateIncidentStatus];
}

function notFound(incident_id: string) {
  return fail({
    code: "NOT_FOUND",
    message: `There is no incident ${incident_id}.`,
    hint: "Check the id with the user; ids look like INC-1024.",
  });
}

/** The system prompt of seed 001's incident assistant. */
export const INCIDENT_PROMPT =
  "You are an incident desk assistant. Check an incident before changing it. Report a change as done only when the tool says ok and changed.";

/** Options of `createIncidentAgent`: any `createDeepAgent` option, plus the desk. */
export type IncidentAgentOptions = Omit<CreateDeepAgentOptions, "contextSchema"> & {
  desk: IncidentDesk;
};

/**
 * The incident agent: the incident tools (plus any `tools` you add), the context schema and
 * the prompt. Every other option passes through, so approval is one option away:
 * `createIncidentAgent({ model, desk, checkpointer, interruptOn: { update_incident_status: true } })`.
 *
 * @example
 * const agent = createIncidentAgent({ model: "openai:gpt-5.5", desk: new IncidentDesk() });
 * await agent.invoke({ messages: [{ role: "user", content: "Move INC-1024 to investigating" }] },
 *   { context: { user_id: "operator-01", role: "operator", can_update: true } });
 */
export function createIncidentAgent(options: IncidentAgentOptions) {
  const { desk, tools = [], ...rest } = options;
  return createDeepAgent({
    systemPrompt: INCIDENT_PROMPT,
    ...rest,
    tools: [...incidentTools(desk), ...tools],
    contextSchema: IncidentContext,
  });
}
