import { tool } from "@langchain/core/tools";

// Realistic tool catalogues for the deferral tests and bench: what a handful of company MCP
// servers expose (CRM, billing, tickets, ...), each tool with a one-paragraph description
// and a JSON schema of 2-5 arguments, enums and bounds included.

const DOMAINS: Array<{ prefix: string; what: string; objects: string[] }> = [
  { prefix: "crm", what: "the CRM", objects: ["account", "contact", "deal", "lead", "note"] },
  {
    prefix: "billing",
    what: "billing",
    objects: ["invoice", "payment", "refund", "plan", "coupon"],
  },
  {
    prefix: "tickets",
    what: "the helpdesk",
    objects: ["ticket", "comment", "macro", "tag", "sla"],
  },
  {
    prefix: "github",
    what: "GitHub",
    objects: ["issue", "pull_request", "branch", "release", "workflow"],
  },
  {
    prefix: "calendar",
    what: "the team calendar",
    objects: ["event", "room", "attendee", "reminder", "slot"],
  },
  {
    prefix: "warehouse",
    what: "the warehouse system",
    objects: ["shipment", "pallet", "stock", "order", "carrier"],
  },
  {
    prefix: "hr",
    what: "the HR system",
    objects: ["employee", "leave", "review", "payslip", "team"],
  },
];
const VERBS: Array<{ verb: string; says: string }> = [
  { verb: "get", says: "Fetch one {object} by id from {what}, with all of its fields." },
  { verb: "list", says: "List {object}s in {what}, newest first, filtered by status and date." },
  { verb: "create", says: "Create a new {object} in {what}; returns the new id." },
  {
    verb: "update",
    says: "Update fields of an existing {object} in {what}; unknown fields are refused.",
  },
  { verb: "delete", says: "Delete a {object} from {what}. Cannot be undone." },
];

/** The name, description and schema of the `index`th generated tool (stable across runs). */
export function generatedToolSpec(index: number) {
  const domain = DOMAINS[index % DOMAINS.length]!;
  const combo = Math.floor(index / DOMAINS.length);
  const object = domain.objects[combo % domain.objects.length]!;
  const verb = VERBS[Math.floor(combo / domain.objects.length) % VERBS.length]!;
  const round = Math.floor(combo / (domain.objects.length * VERBS.length));
  const name = `${domain.prefix}_${verb.verb}_${object}${round ? `_v${round + 1}` : ""}`;
  const noun = object.replace(/_/g, " ");
  const description = `${verb.says.replace(/\{object\}/g, noun).replace("{what}", domain.what)} Use the ${noun} id exactly as ${domain.what} shows it (for example "${domain.prefix.toUpperCase()}-1042"); dates are ISO 8601.`;
  const properties: Record<string, Record<string, unknown>> = {
    id: { type: "string", description: `The ${noun} id.` },
  };
  if (verb.verb === "list") {
    properties.status = {
      type: "string",
      enum: ["open", "pending", "closed"],
      description: "Only this status.",
    };
    properties.since = { type: "string", description: "Created on or after this date." };
    properties.limit = {
      type: "integer",
      minimum: 1,
      maximum: 100,
      description: "At most this many.",
    };
    delete properties.id;
  }
  if (verb.verb === "create" || verb.verb === "update") {
    properties.fields = {
      type: "object",
      description: `Fields of the ${noun}.`,
      properties: { title: { type: "string" }, owner: { type: "string" } },
      required: ["title"],
    };
    properties.notify = { type: "boolean", description: "Tell the owner by email." };
  }
  const required = verb.verb === "list" ? [] : verb.verb === "create" ? ["fields"] : ["id"];
  if (verb.verb === "create") delete properties.id;
  return { name, description, schema: { type: "object", properties, required } };
}

/** `count` generated tools as LangChain tools; each answers with its name and arguments. */
export function generatedTools(count: number) {
  return Array.from({ length: count }, (_, i) => {
    const spec = generatedToolSpec(i);
    return tool(async (args: unknown) => `${spec.name} ok ${JSON.stringify(args)}`, {
      name: spec.name,
      description: spec.description,
      schema: spec.schema as any,
    });
  });
}
