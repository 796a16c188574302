import { HumanMessage } from "@langchain/core/messages";
import { createDeepAgent, loadedTools, SEARCH_TOOLS_NAME, toolText } from "delve";
import { connectMcp, type McpConnection } from "delve/mcp";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { generatedTools } from "../helpers/many-tools.js";
import { chartTools, startMcpHttpServer } from "../helpers/mcp-http-server.js";
import { tinyPng, WIRE_APIS } from "../wire/providers.js";
import type { FakeApi } from "../wire/wire-rules.js";

// Deferred tools through the real provider classes, on fakes that validate every request as
// the provider would: search, load, call; strict schemas of loaded tools.
const sentTools = (body: any) =>
  (body.tools ?? []).map((t: any) => ({
    name: t.name ?? t.function?.name,
    strict: t.strict ?? t.function?.strict,
  }));
const names = (body: any) => sentTools(body).map((t: any) => t.name);

describe.each(WIRE_APIS)("deferred tools over $name", (api) => {
  let fake: FakeApi;
  let server: Awaited<ReturnType<typeof startMcpHttpServer>>;
  let mcp: McpConnection;
  beforeAll(async () => {
    server = await startMcpHttpServer(chartTools(tinyPng()));
    mcp = await connectMcp({ crm: { transport: "http", url: server.url } });
  });
  afterAll(async () => {
    await mcp.close();
    await server.close();
  });
  beforeEach(async () => {
    fake = await api.start();
  });
  afterEach(() => fake.close());

  it("search_tools loads an MCP tool and a generated one; the next request carries them and the calls run", async () => {
    fake.script([
      { toolCalls: [{ name: SEARCH_TOOLS_NAME, args: { query: "lookup hr_get_team" }, id: "s1" }] },
      {
        toolCalls: [
          { name: "lookup", args: { id: "R7" }, id: "c1" },
          { name: "hr_get_team", args: { id: "T-1" }, id: "c2" },
        ],
      },
      { text: "done" },
    ]);
    const agent = createDeepAgent({
      model: api.model(fake),
      tools: [...mcp.tools, ...generatedTools(170)],
      deferTools: true, // Claude's 1M-token window would keep these inline under "auto".
    });
    const out = await agent.invoke({ messages: [new HumanMessage("go")] });
    expect(fake.requests.map((r) => r.rejected)).toEqual([undefined, undefined, undefined]);
    expect(names(fake.requests[0]!.body)).toContain(SEARCH_TOOLS_NAME);
    expect(names(fake.requests[0]!.body)).not.toContain("lookup");
    expect(names(fake.requests[0]!.body)).toHaveLength(9);
    expect(names(fake.requests[1]!.body)).toEqual(
      expect.arrayContaining(["lookup", "hr_get_team"]),
    );
    expect(loadedTools(out)).toEqual(["lookup", "hr_get_team"]);
    const text = (id: string) => toolText(out.messages.find((m: any) => m.tool_call_id === id));
    expect(text("c1")).toBe("record R7 limit none");
    expect(text("c2")).toBe('hr_get_team ok {"id":"T-1"}');
  });

  it("a call before loading runs over the real API and the tool is sent from then on", async () => {
    fake.script([
      { toolCalls: [{ name: "lookup", args: { id: "R1" }, id: "c1" }] },
      { text: "done" },
    ]);
    const agent = createDeepAgent({ model: api.model(fake), tools: mcp.tools, deferTools: true });
    const out = await agent.invoke({ messages: [new HumanMessage("go")] });
    expect(fake.requests.map((r) => r.rejected)).toEqual([undefined, undefined]);
    expect(names(fake.requests[0]!.body)).not.toContain("lookup");
    expect(names(fake.requests[1]!.body)).toContain("lookup");
    expect(toolText(out.messages.find((m: any) => m.tool_call_id === "c1"))).toBe(
      "record R1 limit none",
    );
  });
});

describe.each(WIRE_APIS.filter((a) => a.name !== "anthropic"))(
  "strict tool calling with deferred tools over $name",
  (api) => {
    let fake: FakeApi;
    beforeEach(async () => {
      fake = await api.start();
    });
    afterEach(() => fake.close());

    it("search_tools and every loaded tool are sent strict and pass the strict rules", async () => {
      fake.script([
        {
          toolCalls: [
            { name: SEARCH_TOOLS_NAME, args: { query: "create a refund", limit: null }, id: "s1" },
          ],
        },
        {
          toolCalls: [
            {
              name: "billing_create_refund",
              args: { fields: { title: "R", owner: "ann" }, notify: null },
              id: "c1",
            },
          ],
        },
        { text: "done" },
      ]);
      const agent = createDeepAgent({
        model: api.model(fake, { supportsStrictToolCalling: true }),
        tools: generatedTools(170),
      });
      const out = await agent.invoke({ messages: [new HumanMessage("refund")] });
      expect(fake.requests.map((r) => r.rejected)).toEqual([undefined, undefined, undefined]);
      expect(sentTools(fake.requests[0]!.body)).toContainEqual({
        name: SEARCH_TOOLS_NAME,
        strict: true,
      });
      const second = sentTools(fake.requests[1]!.body);
      expect(second).toHaveLength(9 + 5);
      expect(second.filter((t: any) => t.strict !== true)).toEqual([]);
      expect(toolText(out.messages.find((m: any) => m.tool_call_id === "c1"))).toBe(
        'billing_create_refund ok {"fields":{"title":"R","owner":"ann"}}',
      );
    });
  },
);
