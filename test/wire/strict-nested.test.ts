import { HumanMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { createDeepAgent, toolText } from "delve";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { WIRE_APIS } from "./providers.js";
import type { FakeApi } from "./wire-rules.js";

// Strict tool calling on schemas whose objects sit in `$defs` (as pydantic and many MCP
// servers write them), tuples, unions, `allOf` and recursion: the fake refuses any open
// object or incomplete `required` anywhere, as the real API does with a 400.
const OPENAI = WIRE_APIS.filter((a) => a.name !== "anthropic");

// A pydantic-style booking tool (the shape of a public benchmark's airline tools).
const bookingSchema = {
  title: "book_reservation",
  type: "object",
  $defs: {
    FlightInfo: {
      title: "FlightInfo",
      type: "object",
      properties: { flight_number: { type: "string" }, date: { type: "string" } },
      required: ["flight_number", "date"],
    },
    Passenger: {
      title: "Passenger",
      type: "object",
      properties: {
        first_name: { type: "string" },
        last_name: { type: "string" },
        middle_name: { anyOf: [{ type: "string" }, { type: "null" }], default: null },
        seat: { type: "string" },
      },
      required: ["first_name", "last_name"],
    },
    Payment: {
      title: "Payment",
      type: "object",
      properties: { payment_id: { type: "string" }, amount: { type: "number" } },
      required: ["payment_id", "amount"],
    },
    Category: {
      type: "object",
      properties: {
        name: { type: "string" },
        children: { type: "array", items: { $ref: "#/$defs/Category" } },
      },
      required: ["name"],
    },
  },
  properties: {
    user_id: { type: "string" },
    flights: { type: "array", items: { $ref: "#/$defs/FlightInfo" } },
    passengers: { type: "array", items: { $ref: "#/$defs/Passenger" } },
    payment: { $ref: "#/$defs/Payment", description: "How the user pays." },
    insurance: { allOf: [{ $ref: "#/$defs/Payment" }], description: "Optional insurance." },
    segment: {
      type: "array",
      prefixItems: [
        { type: "object", properties: { from: { type: "string" }, note: { type: "string" } } },
        { type: "string" },
      ],
    },
    contact: {
      oneOf: [
        { type: "object", properties: { phone: { type: "string" } }, required: ["phone"] },
        { type: "object", properties: { email: { type: "string" } } },
      ],
    },
    tags: { $ref: "#/$defs/Category" },
  },
  required: ["user_id", "flights", "passengers", "payment"],
};

const received: unknown[] = [];
const bookingTool = {
  name: "book_reservation",
  description: "Book a reservation.",
  schema: bookingSchema,
  func: async (args: unknown) => {
    received.push(args);
    return "booked";
  },
};

// A record of values: strict mode has no way to say "any key, string values".
const labelTool = tool(async ({ labels }) => `labels ${Object.keys(labels).join(",")}`, {
  name: "set_labels",
  description: "Set labels.",
  schema: z.object({ labels: z.record(z.string(), z.string()) }),
});

const sent = (body: any, name: string) => {
  const t = (body.tools ?? []).find((x: any) => (x.name ?? x.function?.name) === name);
  return {
    strict: t.strict ?? t.function?.strict,
    parameters: t.parameters ?? t.function?.parameters,
  };
};

describe.each(OPENAI)("strict tool calling on nested schemas over $name", (api) => {
  let fake: FakeApi;
  beforeEach(async () => {
    received.length = 0;
    fake = await api.start();
  });
  afterEach(() => fake.close());

  it("objects in $defs, tuples, unions, allOf and recursive refs all go out strict and are accepted", async () => {
    const args = {
      user_id: "mia_1",
      flights: [{ flight_number: "HAT170", date: "2024-05-01" }],
      passengers: [{ first_name: "Mia", last_name: "Li", middle_name: null, seat: null }],
      payment: { payment_id: "card_1", amount: 120 },
      insurance: null,
      segment: [{ from: "JFK", note: null }, "economy"],
      contact: { email: null },
      tags: { name: "trip", children: [{ name: "work", children: null }] },
    };
    fake.script([{ toolCalls: [{ name: "book_reservation", args, id: "c1" }] }, { text: "done" }]);
    const agent = createDeepAgent({
      model: api.model(fake, { supportsStrictToolCalling: true }),
      tools: [bookingTool],
    });
    const result = await agent.invoke({ messages: [new HumanMessage("book")] });

    expect(fake.requests.map((r) => r.rejected)).toEqual([undefined, undefined]);
    expect(sent(fake.requests[0]!.body, "book_reservation").strict).toBe(true);
    const reply = result.messages.find((m: any) => m.tool_call_id === "c1");
    expect(toolText(reply)).toBe("booked");
    // Nulls for optional fields at any depth reach the tool as "not given".
    expect(received).toEqual([
      {
        user_id: "mia_1",
        flights: [{ flight_number: "HAT170", date: "2024-05-01" }],
        passengers: [{ first_name: "Mia", last_name: "Li", middle_name: null }],
        payment: { payment_id: "card_1", amount: 120 },
        segment: [{ from: "JFK" }, "economy"],
        contact: {},
        tags: { name: "trip", children: [{ name: "work" }] },
      },
    ]);
  });

  it("a tool strict mode cannot express (a record of values) goes out non-strict and is accepted", async () => {
    fake.script([
      { toolCalls: [{ name: "set_labels", args: { labels: { team: "ops" } }, id: "c1" }] },
      { text: "done" },
    ]);
    const agent = createDeepAgent({
      model: api.model(fake, { supportsStrictToolCalling: true }),
      tools: [bookingTool, labelTool],
    });
    const result = await agent.invoke({ messages: [new HumanMessage("label")] });
    expect(fake.requests.map((r) => r.rejected)).toEqual([undefined, undefined]);
    const labels = sent(fake.requests[0]!.body, "set_labels");
    expect(labels.strict).toBe(false);
    expect(labels.parameters.properties.labels.additionalProperties).toEqual({ type: "string" });
    // Responses takes a flag per tool; Chat Completions gets one for all from ChatOpenAI.
    const others = api.name === "responses";
    expect(sent(fake.requests[0]!.body, "book_reservation").strict).toBe(others);
    expect(sent(fake.requests[0]!.body, "read_file").strict).toBe(others);
    const reply = result.messages.find((m: any) => m.tool_call_id === "c1");
    expect(toolText(reply)).toBe("labels team");
  });
});
