import { HumanMessage, type ToolMessage } from "@langchain/core/messages";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { createDeepAgent } from "delve";
import { connectMcp, type McpConnection } from "delve/mcp";
import { ScriptedChatModel } from "delve/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { startMcpHttpServer } from "../helpers/mcp-http-server.js";
import { tinyPng } from "../wire/providers.js";

// MCP results carrying `structuredContent`: the model gets the text once, first, and the
// structured data once more only when no text block already is that data.
const counts = { open: 3, ids: ["T1", "T2", "T3"] };
const outputSchema = { open: z.number(), ids: z.array(z.string()) };

function structuredTools(server: McpServer) {
  server.registerTool("as_json", { description: "Counts.", outputSchema }, async () => ({
    // What the SDK's examples do: the same data as JSON text, for older clients.
    content: [{ type: "text", text: JSON.stringify(counts, null, 2) }],
    structuredContent: counts,
  }));
  server.registerTool("as_prose", { description: "Counts.", outputSchema }, async () => ({
    content: [{ type: "text", text: "3 open tickets" }],
    structuredContent: counts,
  }));
  server.registerTool("with_chart", { description: "Counts.", outputSchema }, async () => ({
    content: [
      { type: "text", text: "3 open tickets" },
      { type: "image", data: Buffer.from(tinyPng()).toString("base64"), mimeType: "image/png" },
    ],
    structuredContent: counts,
  }));
}

let server: Awaited<ReturnType<typeof startMcpHttpServer>>;
let mcp: McpConnection;
beforeAll(async () => {
  server = await startMcpHttpServer(structuredTools);
  mcp = await connectMcp({ desk: { transport: "http", url: server.url } });
});
afterAll(async () => {
  await mcp.close();
  await server.close();
});

// The tool message the model received on its second call.
async function resultSeenByModel(tool: string): Promise<ToolMessage> {
  let seen: ToolMessage | undefined;
  const model = new ScriptedChatModel([
    { toolCalls: [{ name: tool, args: {} }] },
    (messages) => {
      seen = messages.at(-1) as ToolMessage;
      return "ok";
    },
  ]);
  await createDeepAgent({ model, tools: mcp.tools }).invoke({
    messages: [new HumanMessage("count")],
  });
  return seen!;
}

const occurrences = (haystack: string, needle: string) => haystack.split(needle).length - 1;

describe("MCP structuredContent reaches the model once", () => {
  it("a text block that is the structured data as JSON is sent alone, as the server wrote it", async () => {
    const message = await resultSeenByModel("as_json");
    expect(message.content).toBe(JSON.stringify(counts, null, 2));
    expect(message.status).not.toBe("error");
  });

  it("prose text comes first, then the structured data once as JSON", async () => {
    const message = await resultSeenByModel("as_prose");
    expect(message.content).toEqual([
      { type: "text", text: "3 open tickets" },
      { type: "text", text: JSON.stringify(counts) },
    ]);
    const wire = JSON.stringify(message.content);
    expect(occurrences(wire, "3 open tickets")).toBe(1);
    expect(occurrences(wire, "T3")).toBe(1);
  });

  it("with an image, the blocks keep their order and the data follows them once", async () => {
    const message = await resultSeenByModel("with_chart");
    const blocks = message.content as any[];
    expect(blocks.map((b) => b.type)).toEqual(["text", "image", "text"]);
    expect(blocks[2].text).toBe(JSON.stringify(counts));
  });

  it("the structured data is also in the tool message's artifact, for code", async () => {
    const message = await resultSeenByModel("as_prose");
    expect(message.artifact).toContainEqual({ type: "mcp_structured_content", data: counts });
  });
});
