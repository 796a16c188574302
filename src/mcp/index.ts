// The `delve/mcp` entry: MCP servers as agent tools. Kept out of the core import so agents
// without MCP do not load the MCP SDK.

export { toolText } from "../toolkit/tool-text.js";
export { type ConnectMcpOptions, connectMcp, type McpConnection } from "./connect-mcp.js";
export type { McpCall, McpCallResult, McpInterceptor } from "./interceptors.js";
export { McpConnectionError } from "./mcp-connection-error.js";
export type { McpPrompt } from "./prompts.js";
export type { McpResource, McpResourceContent } from "./resources.js";
export type {
  McpHttpServer,
  McpServerConfig,
  McpServerOptions,
  McpStdioServer,
} from "./server-config.js";
