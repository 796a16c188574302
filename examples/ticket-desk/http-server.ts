import { timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { TicketStore } from "./database.js";
import { createTicketServer } from "./server.js";

/**
 * Serves the ticket desk over MCP streamable HTTP at `/mcp` on 127.0.0.1, stateless (a fresh
 * MCP server per request, nothing to expire). Requests without `Authorization: Bearer
 * <token>` are answered 401 before any MCP processing.
 *
 * @example
 * const { url, close } = await startTicketHttpServer({ store, token: "s3cret" });
 */
export async function startTicketHttpServer(options: {
  store: TicketStore;
  token: string;
  port?: number;
}): Promise<{ url: string; close(): Promise<void> }> {
  const expected = Buffer.from(`Bearer ${options.token}`);
  const httpServer = http.createServer(async (req, res) => {
    if (new URL(req.url ?? "/", "http://localhost").pathname !== "/mcp") {
      res.writeHead(404).end();
      return;
    }
    const given = Buffer.from(req.headers.authorization ?? "");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      res
        .writeHead(401, { "content-type": "application/json", "www-authenticate": "Bearer" })
        .end(
          JSON.stringify({ error: "unauthorized", message: "A valid bearer token is required." }),
        );
      return;
    }
    const server = createTicketServer(options.store);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    }
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(options.port ?? 0, "127.0.0.1", resolve);
  });
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
