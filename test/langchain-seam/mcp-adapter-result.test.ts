import { loadMcpTools } from "@langchain/mcp-adapters";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adapterResultContent } from "../../src/langchain-seam/mcp-adapter-result.js";
import { startMcpHttpServer } from "../helpers/mcp-http-server.js";

// The adapter shape src/langchain-seam/mcp-adapter-result.ts undoes, checked on a real server.
let server: Awaited<ReturnType<typeof startMcpHttpServer>>;
let client: Client;
beforeAll(async () => {
  server = await startMcpHttpServer((s) => {
    s.registerTool("counts", { description: "Counts." }, async () => ({
      content: [{ type: "text", text: "3 open" }],
      structuredContent: { open: 3 },
    }));
  });
  client = new Client({ name: "seam-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
});
afterAll(async () => {
  await client.close();
  await server.close();
});

describe("@langchain/mcp-adapters result shape", () => {
  it("assumption: a lone text block with structuredContent reaches the ToolMessage as that block's JSON, the data in the artifact", async () => {
    const [tool] = await loadMcpTools("desk", client, {
      useStandardContentBlocks: true,
      outputHandling: "content",
    });
    const message: any = await tool!.invoke({
      type: "tool_call",
      id: "1",
      name: "counts",
      args: {},
    });
    expect(typeof message.content, "the content is the block's JSON string").toBe("string");
    expect(JSON.parse(message.content)).toMatchObject({
      type: "text",
      text: "3 open",
      structuredContent: { open: 3 },
    });
    expect(message.artifact).toContainEqual({ type: "mcp_structured_content", data: { open: 3 } });
    expect(adapterResultContent(message.content, message.artifact)).toEqual({
      type: "text",
      text: "3 open",
    });
  });

  it("text that merely looks like such a block is left alone when the result had no structured data", () => {
    const text = JSON.stringify({ type: "text", text: "x", structuredContent: {} });
    expect(adapterResultContent(text, [])).toBe(text);
  });
});
