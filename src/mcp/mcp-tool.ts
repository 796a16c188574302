import { ToolMessage } from "@langchain/core/messages";
import { DynamicStructuredTool } from "@langchain/core/tools";
import { classifyFailure } from "./call-failure.js";
import { mcpResultContent } from "./content-blocks.js";
import { type McpCall, type McpCallResult, runAfter, runBefore } from "./interceptors.js";
import { McpConnectionError } from "./mcp-connection-error.js";
import type { McpServerLink } from "./server-link.js";

/** What a wrapper needs to know about the server tool it stands for. */
export interface McpToolSpec {
  /** The name the model sees (prefix included). */
  name: string;
  /** The tool's name on the server. */
  tool: string;
  description: string;
  /** The JSON schema of the arguments, as the adapter simplified it. */
  schema: Record<string, unknown>;
  annotations?: unknown;
}

/**
 * A LangChain tool standing for one server tool. It calls whatever session the link holds
 * at call time (so it survives reconnects), runs the server's interceptors, and never
 * throws for a server problem: an `isError` result, a timeout, a crash or an unreachable
 * server all come back as a ToolMessage with `status: "error"`, so the run goes on.
 * `metadata.mcpServer` names the server, which `inspectSurface` reports.
 *
 * @example
 * const tool = mcpTool(link, { name: "crm_get_ticket", tool: "get_ticket", description, schema });
 */
export function mcpTool(link: McpServerLink, spec: McpToolSpec): DynamicStructuredTool {
  const server = link.server;
  return new DynamicStructuredTool({
    name: spec.name,
    description: spec.description,
    schema: spec.schema as any,
    responseFormat: "content_and_artifact",
    metadata: { mcpServer: server.name, mcpTool: spec.tool, annotations: spec.annotations },
    func: async (args: Record<string, unknown>, _runManager, config: any) => {
      const original: McpCall = { server: server.name, tool: spec.tool, name: spec.name, args };
      const call = await runBefore(server.interceptors, original);
      if (call.headers && server.transport !== "http") {
        throw new Error(`an interceptor set headers, but MCP server "${server.name}" uses stdio`);
      }
      const outcome = await callServer(link, call, config?.signal);
      const result = await runAfter(server.interceptors, call, outcome.result);
      if (result.status === "error") {
        const message = new ToolMessage({
          content: result.content as any,
          status: "error",
          tool_call_id: config?.toolCall?.id ?? "",
          name: spec.name,
        });
        return [message, undefined];
      }
      return [result.content, outcome.artifact];
    },
  });
}

async function callServer(
  link: McpServerLink,
  call: McpCall,
  signal: AbortSignal | undefined,
): Promise<{ result: McpCallResult; artifact?: unknown }> {
  const server = link.server;
  const who = `MCP server "${server.name}"`;
  const again =
    server.transport === "stdio"
      ? "The call can be retried: the server is restarted on the next call."
      : "The call can be retried: the server is reconnected on the next call.";
  const error = (text: string) => ({ result: { content: text, status: "error" as const } });

  let session: Awaited<ReturnType<McpServerLink["session"]>>;
  try {
    session = await link.session();
  } catch (e) {
    if (McpConnectionError.isInstance(e) && e.code === "MCP_CLOSED") {
      return error(
        `Error: ${who} was disconnected (close() was called); its tools cannot be used any more.`,
      );
    }
    return error(`Error: ${who} is unavailable (${(e as Error).message}). ${again}`);
  }
  if (!session.tools.has(call.tool)) {
    return error(`Error: ${who} no longer offers ${call.tool} since it was restarted.`);
  }
  try {
    const { content, artifact } = await session.call(call.tool, call.args, {
      timeoutMs: server.timeoutMs,
      headers: call.headers,
      signal,
    });
    return {
      result: { content: mcpResultContent(content, artifact) as any, status: "success" },
      artifact,
    };
  } catch (e) {
    if (signal?.aborted) throw e; // The run is being cancelled: not the server's fault.
    const failure = classifyFailure(e, server.name, call.tool);
    switch (failure.kind) {
      case "tool_error":
        return error(failure.text);
      case "refused":
        return error(`Error: ${who} rejected ${call.tool}: ${failure.reason}`);
      case "timeout":
        // A server that hangs may be wedged: start afresh on the next call.
        session.retire();
        return error(
          `Error: ${who} is unavailable: no answer to ${call.tool} within ${server.timeoutMs} ms. ${again}`,
        );
      case "unavailable":
        session.retire();
        return error(`Error: ${who} is unavailable (${failure.reason}). ${again}`);
    }
  }
}
