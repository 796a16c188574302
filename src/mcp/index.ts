// The `delve/mcp` entry: MCP servers as agent tools. Every name here is public API. Kept out of
// the root entry so agents without MCP do not load the MCP SDK; `toolText` comes from its own
// file so that this entry does not load the rest of the toolkit.

export { toolText } from "../toolkit/tool-text.js";
export { type ConnectMcpOptions, connectMcp, type McpConnection } from "./connect-mcp.js";
export type { McpCall, McpCallResult, McpInterceptor } from "./interceptors.js";
export {
  MCP_CONNECTION_ERROR_CODES,
  McpConnectionError,
  type McpConnectionErrorCode,
} from "./mcp-connection-error.js";
export type { McpPrompt } from "./prompts.js";
export type { McpResource, McpResourceContent } from "./resources.js";
export type {
  McpHttpServer,
  McpServerConfig,
  McpServerOptions,
  McpStdioServer,
} from "./server-config.js";
