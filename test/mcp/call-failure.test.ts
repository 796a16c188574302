import { describe, expect, it } from "vitest";
import { classifyFailure } from "../../src/mcp/call-failure.js";

// The messages below are the shapes @langchain/mcp-adapters 1.1 throws (ToolException text).
describe("classifyFailure", () => {
  it("an isError result keeps exactly the server's text", () => {
    const error = new Error(
      "MCP tool 'get_ticket' on server 'ticket' returned an error: {\"error\":\"not_found\"}",
    );
    expect(classifyFailure(error, "ticket", "get_ticket")).toEqual({
      kind: "tool_error",
      text: '{"error":"not_found"}',
    });
  });

  it("an isError prefix naming another server is not taken for this tool's error", () => {
    const error = new Error("MCP tool 'get_ticket' on server 'crm' returned an error: nope");
    expect(classifyFailure(error, "ticket", "get_ticket").kind).toBe("unavailable");
  });

  it("sorts SDK errors by JSON-RPC code", () => {
    const sdk = (code: number, text: string) =>
      new Error(`Error calling tool x: McpError: MCP error ${code}: ${text}`);
    expect(classifyFailure(sdk(-32001, "Request timed out"), "s", "x")).toEqual({
      kind: "timeout",
    });
    expect(classifyFailure(sdk(-32000, "Connection closed"), "s", "x")).toEqual({
      kind: "unavailable",
      reason: "MCP error -32000: Connection closed",
    });
    expect(classifyFailure(sdk(-32602, "Tool x not found"), "s", "x")).toEqual({
      kind: "refused",
      reason: "MCP error -32602: Tool x not found",
    });
  });

  it("anything else (network, lost transport) means the server is unavailable", () => {
    expect(
      classifyFailure(new Error("Error calling tool x: TypeError: fetch failed"), "s", "x"),
    ).toEqual({
      kind: "unavailable",
      reason: "fetch failed",
    });
    expect(
      classifyFailure(new Error("Error calling tool x: Error: Not connected"), "s", "x"),
    ).toEqual({
      kind: "unavailable",
      reason: "Not connected",
    });
  });
});
