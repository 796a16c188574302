/** Why an MCP tool call failed, as far as the model needs to know. */
export type CallFailure =
  /** The tool ran and reported an error (`isError`): the server's own message. */
  | { kind: "tool_error"; text: string }
  /** No answer within the call's timeout. */
  | { kind: "timeout" }
  /** The server is up but refused the request (a JSON-RPC error, an invalid result). */
  | { kind: "refused"; reason: string }
  /** The connection is gone or never came: crash, network, expired session. */
  | { kind: "unavailable"; reason: string };

/**
 * Sorts what `@langchain/mcp-adapters` threw for a call. The adapter turns every failure into
 * a `ToolException` whose message is all that survives (the original error is not kept), so
 * this reads the message: an `isError` result has a fixed prefix naming tool and server,
 * SDK errors carry their JSON-RPC code (-32001 request timeout, -32000 connection closed).
 *
 * @example
 * classifyFailure(new Error("MCP tool 'get_ticket' on server 'ticket' returned an error: no such ticket"), "ticket", "get_ticket")
 * // { kind: "tool_error", text: "no such ticket" }
 */
export function classifyFailure(error: unknown, server: string, tool: string): CallFailure {
  const message = error instanceof Error ? error.message : String(error);
  const toolError = `MCP tool '${tool}' on server '${server}' returned an error: `;
  if (message.startsWith(toolError))
    return { kind: "tool_error", text: message.slice(toolError.length) };
  const reason = message.replace(`Error calling tool ${tool}: `, "").trim();
  const code = /MCP error (-?\d+)/.exec(message)?.[1];
  if (code === "-32001") return { kind: "timeout" };
  if (code === "-32000") return { kind: "unavailable", reason: withoutErrorClass(reason) };
  if (code !== undefined || /returned (an invalid result|a content block)/.test(message)) {
    return { kind: "refused", reason: withoutErrorClass(reason) };
  }
  return { kind: "unavailable", reason: withoutErrorClass(reason) || "no answer" };
}

// "McpError: MCP error -32000: Connection closed" -> "MCP error -32000: Connection closed".
function withoutErrorClass(reason: string): string {
  return reason.replace(/^[A-Za-z]*Error: /, "");
}
