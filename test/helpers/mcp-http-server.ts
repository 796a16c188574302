import http from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

/** A real MCP server over streamable HTTP on 127.0.0.1, with the tools given. */
export async function startMcpHttpServer(
  register: (server: McpServer) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const httpServer = http.createServer(async (req, res) => {
    const server = new McpServer({ name: "wire-fixture", version: "1.0.0" });
    register(server);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  const { port } = httpServer.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        httpServer.closeAllConnections();
        httpServer.close(() => resolve());
      }),
  };
}

/**
 * The tools the wire and argument tests use: `chart` answers a caption and a PNG that the
 * server labels `image/jpeg` (as a careless server does), `lookup` takes a required id and
 * an optional integer limit of at least 1.
 */
export function chartTools(png: Uint8Array) {
  return (server: McpServer) => {
    server.registerTool("chart", { description: "Sales chart as an image." }, async () => ({
      content: [
        { type: "text", text: "Sales by month" },
        { type: "image", data: Buffer.from(png).toString("base64"), mimeType: "image/jpeg" },
      ],
    }));
    server.registerTool(
      "lookup",
      {
        description: "Look up a record.",
        inputSchema: { id: z.string(), limit: z.number().int().min(1).optional() },
      },
      async (args) => ({
        content: [{ type: "text", text: `record ${args.id} limit ${args.limit ?? "none"}` }],
      }),
    );
  };
}
