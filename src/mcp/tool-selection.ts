import { BUILTIN_TOOL_NAMES } from "../agent/builtin-names.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import type { CheckedServer } from "./server-config.js";

/** A server tool chosen for the agent, with the name the model will see. */
export interface SelectedTool {
  server: CheckedServer;
  /** The tool's name on the server. */
  tool: string;
  /** The name the model sees: prefix + the server's name (made provider-safe). */
  name: string;
}

/**
 * Applies each server's include / exclude / prefix to the tools it lists, then refuses the
 * names the agent cannot take safely. Server tool names are not under the user's control,
 * so two servers exposing one name, or a server tool named like a built-in (an MCP
 * `read_file` would silently replace the agent's own and split its file system in two), are
 * configuration errors that say how to fix them.
 *
 * @example
 * selectTools([{ server: { name: "crm", prefix: "crm_", ... }, tools: ["get_ticket"] }])
 * // [{ server, tool: "get_ticket", name: "crm_get_ticket" }]
 */
export function selectTools(
  listed: Array<{ server: CheckedServer; tools: string[] }>,
): SelectedTool[] {
  const selected = listed.flatMap(({ server, tools }) => selectFromServer(server, tools));
  const byName = new Map<string, SelectedTool>();
  for (const entry of selected) {
    if (entry.name.length > MAX_TOOL_NAME) throw tooLong(entry);
    if (BUILTIN_TOOL_NAMES.includes(entry.name)) throw shadowsBuiltin(entry);
    const first = byName.get(entry.name);
    if (first) throw duplicate(first, entry);
    byName.set(entry.name, entry);
  }
  return selected;
}

function selectFromServer(server: CheckedServer, tools: string[]): SelectedTool[] {
  const missing = (server.include ?? []).filter((name) => !tools.includes(name));
  if (missing.length > 0) {
    throw new ConfigurationError(
      "UNKNOWN_MCP_TOOL",
      `MCP server "${server.name}" has no tool ${missing.map((n) => `"${n}"`).join(", ")} (include). It offers: ${tools.join(", ") || "no tools"}.`,
      { server: server.name, missing, available: tools },
    );
  }
  return tools
    .filter((tool) => !server.include || server.include.includes(tool))
    .filter((tool) => !server.exclude?.includes(tool))
    .map((tool) => ({ server, tool, name: `${server.prefix ?? ""}${providerSafe(tool)}` }));
}

// OpenAI and Anthropic refuse longer tool names with a 400 on every request.
const MAX_TOOL_NAME = 64;

function tooLong(entry: SelectedTool): ConfigurationError {
  const { server, tool, name } = entry;
  const fix = server.prefix
    ? `Give the server a shorter prefix (now "${server.prefix}", ${server.prefix.length} characters) or leave the tool out (exclude: ["${tool}"])`
    : `Leave the tool out (exclude: ["${tool}"])`;
  return new ConfigurationError(
    "MCP_TOOL_NAME_TOO_LONG",
    `MCP server "${server.name}" tool "${tool}" would be named "${name}" (${name.length} characters); providers accept tool names of at most ${MAX_TOOL_NAME}. ${fix}.`,
    { server: server.name, tool, name },
  );
}

// Providers accept tool names of letters, digits, _ and - only (MCP allows dots and slashes).
function providerSafe(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, "_");
}

function shadowsBuiltin(entry: SelectedTool): ConfigurationError {
  const { server, tool, name } = entry;
  return new ConfigurationError(
    "MCP_TOOL_SHADOWS_BUILTIN",
    `MCP server "${server.name}" exposes a tool named "${name}", which would replace the agent's built-in ${name} (the model would then read and write through two different systems). Give the server a prefix (prefix: "${server.name}_") or leave the tool out (exclude: ["${tool}"]).`,
    { server: server.name, tool, name },
  );
}

function duplicate(first: SelectedTool, second: SelectedTool): ConfigurationError {
  const where =
    first.server === second.server
      ? `MCP server "${first.server.name}" exposes two tools ("${first.tool}" and "${second.tool}") named "${first.name}"`
      : `MCP servers "${first.server.name}" and "${second.server.name}" both expose a tool named "${first.name}"`;
  return new ConfigurationError(
    "MCP_TOOL_CONFLICT",
    `${where}; tool names must be unique. Give a server a prefix (prefix: "${second.server.name}_") or leave the tool out (exclude: ["${second.tool}"]).`,
    { name: first.name, servers: [first.server.name, second.server.name] },
  );
}
