import type { DynamicStructuredTool } from "@langchain/core/tools";
import { loadMcpTools } from "@langchain/mcp-adapters";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { adapterResultContent } from "../langchain-seam/index.js";
import { trackChild } from "./child-reaper.js";
import { McpConnectionError } from "./mcp-connection-error.js";
import { openTransport, withCallHeaders } from "./open-transport.js";
import type { CheckedServer } from "./server-config.js";

/** One call's result from the adapter's tool: what the model would see, and any artifact. */
export interface InnerResult {
  content: any;
  artifact?: unknown;
}

/**
 * One live connection to one server: an SDK client, the adapter's tools bound to it, and
 * whether it still works. A session never comes back to life; `McpServerLink` replaces a
 * dead or retired one. Retiring waits for the calls in flight, then closes (for stdio this
 * ends the process).
 */
export class McpSession {
  /** The adapter's tools for this connection, by the server's tool name. */
  readonly tools: Map<string, DynamicStructuredTool>;
  readonly client: Client;
  private alive = true;
  private retired = false;
  private inflight = 0;
  private closing: Promise<void> | undefined;

  private constructor(client: Client, tools: DynamicStructuredTool[]) {
    this.client = client;
    this.tools = new Map(tools.map((t) => [t.name, t]));
  }

  /** Starts (stdio) or reaches (http) the server, handshakes and lists its tools. */
  static async open(server: CheckedServer, connectTimeoutMs: number): Promise<McpSession> {
    const opened = openTransport(server);
    const client = new Client({ name: "delve", version: "0.1.0" });
    let session: McpSession | undefined;
    let closed = false;
    let release: (() => void) | undefined;
    client.onclose = () => {
      closed = true;
      if (session) session.alive = false;
      release?.();
    };
    try {
      await client.connect(opened.transport, { timeout: connectTimeoutMs });
      const pid = opened.pid();
      if (pid !== undefined) release = trackChild(pid, opened.group);
      const tools = await loadMcpTools(server.name, client, {
        throwOnLoadError: true,
        // Keep every block (text, image, resource) in the message content, in LangChain's
        // standard block shapes, rather than moving resources to the artifact.
        useStandardContentBlocks: true,
        outputHandling: "content",
      });
      session = new McpSession(client, tools);
      session.alive = !closed;
      return session;
    } catch (error) {
      await client.close().catch(() => {});
      throw connectionError(server, error, opened.stderrTail());
    }
  }

  /** False once the connection closed or was retired: the link must open a new one. */
  get usable(): boolean {
    return this.alive && !this.retired;
  }

  /** Calls one tool through the adapter; throws what the adapter throws. */
  async call(
    tool: string,
    args: Record<string, unknown>,
    options: { timeoutMs: number; headers?: Record<string, string>; signal?: AbortSignal },
  ): Promise<InnerResult> {
    const inner = this.tools.get(tool);
    if (!inner) throw new Error(`the server no longer offers ${tool}`);
    this.inflight++;
    try {
      // A tool call (not bare args) so the adapter's artifact survives into the message.
      const message: any = await withCallHeaders(options.headers, () =>
        inner.invoke(
          { type: "tool_call", id: "mcp", name: tool, args },
          { metadata: { timeoutMs: options.timeoutMs }, signal: options.signal },
        ),
      );
      return {
        content: adapterResultContent(message.content, message.artifact),
        artifact: message.artifact,
      };
    } finally {
      this.inflight--;
      if (this.retired && this.inflight === 0) void this.close();
    }
  }

  /** Stops handing out this session; closes it once the calls in flight are done. */
  retire(): void {
    this.retired = true;
    if (this.inflight === 0) void this.close();
  }

  /** Closes the connection (stdio: ends the process and waits for it). */
  close(): Promise<void> {
    this.alive = false;
    this.closing ??= this.client.close().catch(() => {});
    return this.closing;
  }
}

function connectionError(
  server: CheckedServer,
  error: unknown,
  stderr: string,
): McpConnectionError {
  const where =
    server.transport === "http"
      ? `MCP server "${server.name}" at ${server.url}`
      : `MCP server "${server.name}" (${[server.command, ...(server.args ?? [])].join(" ")})`;
  const status = (error as { code?: unknown })?.code;
  if (status === 401 || status === 403 || (error as Error)?.name === "UnauthorizedError") {
    return new McpConnectionError(
      "MCP_UNAUTHORIZED",
      server.name,
      `${where} refused the connection: HTTP ${status ?? 401} ${status === 403 ? "Forbidden" : "Unauthorized"}. Check the credentials in its headers, e.g. headers: { Authorization: "Bearer <token>" }.`,
      { cause: error },
    );
  }
  const reason = error instanceof Error ? error.message : String(error);
  // Stack frames say little to the reader; the error lines around them say what happened.
  const lines = stderr.split("\n").filter((l) => l.trim() && !/^\s+at /.test(l));
  const tail = lines.length > 0 ? ` Its stderr ended with: ${lines.slice(-5).join(" | ")}` : "";
  return new McpConnectionError(
    "MCP_CONNECT_FAILED",
    server.name,
    `Could not connect to ${where}: ${reason}.${tail}`,
    { cause: error },
  );
}
