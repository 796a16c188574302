import { tool } from "@langchain/core/tools";
import { ConfigurationError, createDeepAgent, toolText } from "delve";
import { connectMcp, type McpConnection } from "delve/mcp";
import { ScriptedChatModel } from "delve/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { chartTools, startMcpHttpServer } from "../helpers/mcp-http-server.js";

// The same arguments, wrong in the same way, sent to a zod tool, a JSON-schema tool and an
// MCP tool: the model must read the same field-level explanation from each.
let mcpServer: Awaited<ReturnType<typeof startMcpHttpServer>>;
let mcp: McpConnection;
beforeAll(async () => {
  mcpServer = await startMcpHttpServer(chartTools(new Uint8Array([137, 80, 78, 71])));
  mcp = await connectMcp({ crm: { transport: "http", url: mcpServer.url, include: ["lookup"] } });
});
afterAll(async () => {
  await mcp.close();
  await mcpServer.close();
});

const zodLookup = tool(async ({ id, limit }) => `record ${id} limit ${limit ?? "none"}`, {
  name: "zod_lookup",
  description: "Look up a record.",
  schema: z.object({ id: z.string(), limit: z.number().int().min(1).optional() }),
});
const jsonLookup = {
  name: "json_lookup",
  description: "Look up a record.",
  schema: {
    type: "object",
    properties: { id: { type: "string" }, limit: { type: "integer", minimum: 1 } },
    required: ["id"],
  },
  func: async (args: { id: string; limit?: number }) =>
    `record ${args.id} limit ${args.limit ?? "none"}`,
};

async function callEach(args: Record<string, unknown>) {
  const names = ["zod_lookup", "json_lookup", "lookup"];
  const model = new ScriptedChatModel([
    { toolCalls: names.map((name, i) => ({ name, args, id: `c${i}` })) },
    "done",
  ]);
  const agent = createDeepAgent({ model, tools: [zodLookup, jsonLookup, ...mcp.tools] });
  const result = await agent.invoke({ messages: [{ role: "user", content: "go" }] });
  return names.map((name, i) => {
    const message = result.messages.find((m: any) => m.tool_call_id === `c${i}`) as any;
    return { name, status: message.status, text: toolText(message).replace(name, "X") };
  });
}

describe("argument errors read alike for zod, JSON-schema and MCP tools", () => {
  it("wrong types name each field, what it must be and what it was", async () => {
    const results = await callEach({ id: 5, limit: "ten" });
    for (const r of results) {
      expect(r.status, r.name).toBe("error");
      expect(r.text, r.name).toBe(
        'Error: invalid arguments for X: "id" must be string, not number; "limit" must be integer, not string. Fix the arguments and retry.',
      );
    }
  });

  it("a bound is stated in plain words", async () => {
    const results = await callEach({ id: "R7", limit: 0 });
    for (const r of results) {
      expect(r.text, r.name).toBe(
        'Error: invalid arguments for X: "limit" must be at least 1. Fix the arguments and retry.',
      );
    }
  });

  it("a missing required argument is named", async () => {
    const results = await callEach({ limit: 2 });
    for (const r of results) {
      expect(r.text, r.name).toBe(
        'Error: invalid arguments for X: "id" is required. Fix the arguments and retry.',
      );
    }
  });

  it("null for an optional argument means not given; null for a required one is an error", async () => {
    const given = await callEach({ id: "R7", limit: null });
    for (const r of given) expect(r.text, r.name).toBe("record R7 limit none");
    const refused = await callEach({ id: null });
    for (const r of refused) {
      expect(r.text, r.name).toBe(
        'Error: invalid arguments for X: "id" must be string, not null. Fix the arguments and retry.',
      );
    }
  });
});

describe("tool names providers would refuse", () => {
  it("an MCP prefix that makes a name longer than 64 characters is a construction error naming the fix", async () => {
    const prefix = `${"very_long_company_prefix_".repeat(2)}crm_records_`;
    const error = await connectMcp({
      crm: {
        transport: "http",
        url: mcpServer.url,
        include: ["lookup"],
        prefix: `${prefix}${"x".repeat(10)}_`,
      },
    }).catch((e) => e);
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect(error.code).toBe("MCP_TOOL_NAME_TOO_LONG");
    expect(error.message).toMatch(
      /tool "lookup" would be named ".+" \(\d+ characters\); providers accept tool names of at most 64/,
    );
    expect(error.message).toMatch(/shorter prefix/);
  });

  it("a user tool whose name is over 64 characters is refused at construction", () => {
    const long = tool(async () => "ok", {
      name: "a".repeat(65),
      description: "Too long.",
      schema: z.object({}),
    });
    expect(() => createDeepAgent({ model: new ScriptedChatModel([]), tools: [long] })).toThrow(
      /1-64 letters, digits, _ or - \(this one has 65 characters\)/,
    );
  });
});
