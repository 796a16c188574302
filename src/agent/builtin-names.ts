// Names shared across features: a leaf module, so that importing a name never loads the agent
// assembly (`delve/mcp` needs BUILTIN_TOOL_NAMES and nothing else from here).

/** The file tools the filesystem middleware owns, in the order they are registered. */
export const FS_TOOL_NAMES = [
  "ls",
  "read_file",
  "write_file",
  "edit_file",
  "delete",
  "glob",
  "grep",
  "execute",
] as const;

/** The name of one file tool. */
export type FsToolName = (typeof FS_TOOL_NAMES)[number];

/** The name of the subagent delegation tool. */
export const TASK_TOOL_NAME = "task";

/** Built-in tool names a user tool can shadow: the file tools and `task`. */
export const BUILTIN_TOOL_NAMES: readonly string[] = [...FS_TOOL_NAMES, TASK_TOOL_NAME];

/** The name of the middleware that owns the file tools. */
export const FILESYSTEM_MIDDLEWARE_NAME = "FilesystemMiddleware";

/** The name of the middleware that owns the `task` tool. */
export const SUBAGENT_MIDDLEWARE_NAME = "SubAgentMiddleware";

/** The name of the subagent every agent has unless a profile disables it. */
export const GENERAL_PURPOSE_SUBAGENT = "general-purpose";
