import type { DynamicStructuredTool } from "@langchain/core/tools";
import { ConfigurationError } from "../errors/configuration-error.js";
import { mcpTool } from "./mcp-tool.js";
import { listPrompts, type McpPrompt } from "./prompts.js";
import { listResources, type McpResource } from "./resources.js";
import { checkServers, type McpServerConfig } from "./server-config.js";
import { McpServerLink } from "./server-link.js";
import { selectTools } from "./tool-selection.js";

/** Defaults for every server of one `connectMcp` call. */
export interface ConnectMcpOptions {
  /** Per tool call, for servers without their own `timeoutMs`. Default 60000. */
  timeoutMs?: number;
  /** For starting / reaching a server and its handshake. Default 30000. */
  connectTimeoutMs?: number;
}

/**
 * What `connectMcp` returns: the servers' tools for `createDeepAgent({ tools })`, their
 * resources and prompts on demand, and `close()`, which you call when the agent is done.
 *
 * @example
 * const guide = (await mcp.resources()).find((r) => r.uri === "ticket-desk://guide");
 * console.log((await guide?.read())?.[0]?.text);
 * const [brief] = await mcp.prompts(); // status_brief
 * await agent.invoke({ messages: await brief!.get({ status: "unassigned" }) });
 */
export interface McpConnection {
  /** LangChain tools for `createDeepAgent({ tools })`; `metadata.mcpServer` names each one's server. */
  tools: DynamicStructuredTool[];
  /** Every server's resources. */
  resources(): Promise<McpResource[]>;
  /** Every server's prompts. */
  prompts(): Promise<McpPrompt[]>;
  /**
   * Disconnects every server and ends stdio servers' process groups (within
   * `2 * shutdownGraceMs + 3s` each, whatever they do); the tools then return errors.
   */
  close(): Promise<void>;
}

/**
 * Connects to MCP servers and returns their tools, ready for `createDeepAgent({ tools })`.
 * Each server may narrow its tools (`include`, `exclude`), rename them (`prefix`), bound
 * each call (`timeoutMs`) and wrap calls (`interceptors`). Names that would collide (two
 * servers, or a server and a built-in such as `read_file`) are refused here, before the
 * agent exists. At run time a failing server never ends the run: the model gets an error
 * result and the next call reconnects (stdio: restarts the process). Each stdio server runs
 * in its own process group under a small supervisor process, and the whole group (children
 * of `sh -c`, whatever the server started) ends on `close()`, when this process exits or is
 * interrupted, and when it is killed with SIGKILL: its stdin closes, then SIGTERM, then
 * SIGKILL, `shutdownGraceMs` apart. `close()` returns even when a server ignores all that.
 *
 * @example
 * const mcp = await connectMcp({
 *   ticket: { transport: "stdio", command: "node", args: ["server.js"] },
 *   crm: { transport: "http", url: "http://127.0.0.1:8931/mcp", prefix: "crm_", include: ["get_customer"] },
 * });
 * const agent = createDeepAgent({ model, tools: mcp.tools });
 * try { await agent.invoke(input) } finally { await mcp.close() }
 */
export async function connectMcp(
  servers: Record<string, McpServerConfig>,
  options: ConnectMcpOptions = {},
): Promise<McpConnection> {
  const connectTimeoutMs = options.connectTimeoutMs ?? 30_000;
  if (typeof connectTimeoutMs !== "number" || !(connectTimeoutMs > 0)) {
    throw new ConfigurationError(
      "INVALID_MCP_SERVER",
      "connectTimeoutMs must be a positive number of milliseconds.",
    );
  }
  const checked = checkServers(servers, options.timeoutMs ?? 60_000);
  const links = checked.map((s) => new McpServerLink(s, connectTimeoutMs));
  const close = async () => {
    await Promise.all(links.map((link) => link.close()));
  };
  try {
    const sessions = await Promise.all(links.map((link) => link.session()));
    const selected = selectTools(
      links.map((link, i) => ({ server: link.server, tools: [...sessions[i]!.tools.keys()] })),
    );
    const tools = selected.map(({ server, tool, name }) => {
      const index = checked.indexOf(server);
      const inner = sessions[index]!.tools.get(tool)!;
      return mcpTool(links[index]!, {
        name,
        tool,
        description: inner.description,
        schema: inner.schema as Record<string, unknown>,
        annotations: inner.metadata?.annotations,
      });
    });
    return {
      tools,
      resources: async () => (await Promise.all(links.map(listResources))).flat(),
      prompts: async () => (await Promise.all(links.map(listPrompts))).flat(),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
