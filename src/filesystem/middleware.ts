import { StateSchema } from "@langchain/langgraph";
import { createMiddleware } from "langchain";
import {
  FILESYSTEM_MIDDLEWARE_NAME,
  FS_TOOL_NAMES,
  type FsToolName,
} from "../agent/builtin-names.js";
import { withAgentLevelState } from "../agent/hook-state.js";
import { filesStateValue } from "../backends/file-map/files-state.js";
import { StateBackend } from "../backends/file-map/state.js";
import { assertBackendInstance } from "../backends/protocol/assert-backend.js";
import type { BackendProtocol } from "../backends/protocol/protocol.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { type PermissionRule, validatePermissions } from "../permissions/index.js";
import { type HiddenTools, setSurfacePlan } from "../surface/surface-plan.js";
import { ALLOW_ALL, type FsToolContext } from "./fs-context.js";
import {
  confineExecution,
  guardFromRules,
  pathApprovalGate,
  policedBackend,
  setPathApprovalGate,
} from "./permission-guard.js";
import { createDeleteTool } from "./tools/delete.js";
import { createEditFileTool } from "./tools/edit-file.js";
import { createExecuteTool } from "./tools/execute.js";
import { createGlobTool } from "./tools/glob.js";
import { createGrepTool } from "./tools/grep.js";
import { createLsTool } from "./tools/ls.js";
import { MAX_TOOL_OUTPUT_CHARS, MIN_TOOL_OUTPUT_CHARS } from "./tools/output-budget.js";
import { createReadFileTool } from "./tools/read-file.js";
import { createWriteFileTool } from "./tools/write-file.js";

export { FILESYSTEM_MIDDLEWARE_NAME, FS_TOOL_NAMES, type FsToolName };

/**
 * Options of `filesystemMiddleware`. `backend`, `tools` and `permissions` are the ones to
 * set; `hiddenElsewhere` and `descriptions` are filled in by `createDeepAgent` from the
 * harness profile.
 */
export interface FilesystemMiddlewareOptions {
  /** Where files live. Default: a new `StateBackend` (files in graph state). */
  backend?: BackendProtocol;
  /** Whitelist of file tools to construct; unlisted tools do not exist. Must include read_file. */
  tools?: readonly FsToolName[];
  /**
   * Path rules checked before every file tool call, in order; the first rule matching both
   * operation and path wins, no match allows. See `PermissionRule`. An `interrupt` rule pauses
   * the call for a human inside `createDeepAgent` (which then needs a checkpointer); used
   * without the approval middleware, such paths are refused.
   */
  permissions?: readonly PermissionRule[];
  /** Tools hidden from the model by something outside this middleware (never mentioned). */
  hiddenElsewhere?: ReadonlySet<string>;
  /** Tool name -> description replacing the built-in one (a harness profile's overrides). */
  descriptions?: Readonly<Record<string, string>>;
  /**
   * The most characters one `ls`, `glob`, `grep` or `read_file` result shows; past it the
   * tool says what it left out and how to narrow. Default: sized by `createDeepAgent` from
   * the model's input window (a tenth of it), else 80,000.
   */
  maxOutputChars?: number;
}

const FACTORIES: Record<FsToolName, (ctx: FsToolContext) => any> = {
  ls: createLsTool,
  read_file: createReadFileTool,
  write_file: createWriteFileTool,
  edit_file: createEditFileTool,
  delete: createDeleteTool,
  glob: createGlobTool,
  grep: createGrepTool,
  execute: createExecuteTool,
};

/** Checks a whitelist: known names only, and read_file included. */
export function validateFsToolList(tools: readonly string[]): FsToolName[] {
  if (!Array.isArray(tools)) {
    throw new ConfigurationError(
      "INVALID_FS_TOOLS",
      `tools must be an array of file tool names: ${FS_TOOL_NAMES.join(", ")}.`,
    );
  }
  for (const name of tools) {
    if (!(FS_TOOL_NAMES as readonly string[]).includes(name)) {
      throw new ConfigurationError(
        "UNKNOWN_FS_TOOL",
        `Unknown file tool "${name}" in tools. Valid names: ${FS_TOOL_NAMES.join(", ")}.`,
        { tool: name, validNames: [...FS_TOOL_NAMES] },
      );
    }
  }
  if (!tools.includes("read_file")) {
    throw new ConfigurationError(
      "READ_FILE_REQUIRED",
      "read_file must be included in tools; it is required by FilesystemMiddleware",
    );
  }
  return FS_TOOL_NAMES.filter((name) => tools.includes(name));
}

/**
 * The filesystem middleware: owns `ls, read_file, write_file, edit_file, delete, glob, grep,
 * execute` over one backend, and the `files` state channel. `tools` is a whitelist (unlisted
 * tools are never constructed). `execute` stays registered but is hidden from the model when
 * the backend cannot execute; `delete` is hidden when the backend cannot delete. Pass one in
 * `createDeepAgent({ middleware })` to replace the default.
 *
 * @example
 * createDeepAgent({ model, middleware: [filesystemMiddleware({ tools: ["ls", "read_file", "grep"] })] });
 */
export function filesystemMiddleware(options: FilesystemMiddlewareOptions = {}) {
  const rules = validatePermissions(options.permissions ?? []);
  if (options.backend !== undefined) assertBackendInstance(options.backend, "backend");
  const backend = confineExecution(options.backend ?? new StateBackend(), rules);
  const names = validateFsToolList(options.tools ?? [...FS_TOOL_NAMES]);
  const hidden: HiddenTools = new Map();
  if (names.includes("execute") && typeof backend.execute !== "function") {
    hidden.set("execute", "the backend cannot execute commands");
  }
  if (names.includes("delete") && typeof backend.delete !== "function") {
    hidden.set("delete", "the backend cannot delete files");
  }
  const invisible = new Set([...hidden.keys(), ...(options.hiddenElsewhere ?? [])]);
  const guard = rules.length ? guardFromRules(rules) : ALLOW_ALL;
  const ctx: FsToolContext = {
    // The backend judges the paths it really touches by the same rules (links, walks).
    backend: guard.policy ? policedBackend(backend, guard.policy) : backend,
    guard,
    mentions: (tool) => !invisible.has(tool) && (names as string[]).includes(tool),
    execution: typeof backend.execute === "function" ? backend.executionFacts?.() : undefined,
    outputChars: checkOutputChars(options.maxOutputChars),
  };
  const tools = names.map((name) => {
    const built = FACTORIES[name](ctx);
    const override = options.descriptions?.[name];
    if (override) built.description = override;
    return built;
  });
  const middleware = withAgentLevelState(
    createMiddleware({
      name: FILESYSTEM_MIDDLEWARE_NAME,
      stateSchema: new StateSchema({ files: filesStateValue() }),
      tools,
      wrapModelCall: (request, handler) => {
        if (hidden.size === 0) return handler(request);
        return handler({
          ...request,
          tools: request.tools.filter((t: any) => !hidden.has(t?.name)),
        });
      },
    }),
  );
  // Rules in "interrupt" mode: the approval middleware asks this gate which calls need a human;
  // without one (this middleware used alone), such paths are refused.
  setPathApprovalGate(middleware, pathApprovalGate(rules, names));
  setSurfacePlan(middleware, {
    hidden,
    backend,
    rebuild: (extra) =>
      filesystemMiddleware({
        ...options,
        permissions: [...(extra.permissions ?? []), ...rules],
        hiddenElsewhere: new Set([
          ...(options.hiddenElsewhere ?? []),
          ...(extra.hiddenElsewhere ?? []),
        ]),
        descriptions: { ...extra.descriptions, ...options.descriptions },
        maxOutputChars: options.maxOutputChars ?? extra.maxOutputChars,
        backend: extra.backend ?? options.backend,
      }),
  });
  return middleware;
}

function checkOutputChars(value: number | undefined): number {
  if (value === undefined) return MAX_TOOL_OUTPUT_CHARS;
  if (!Number.isInteger(value) || value < MIN_TOOL_OUTPUT_CHARS) {
    throw new ConfigurationError(
      "INVALID_OPTION",
      `maxOutputChars must be a whole number >= ${MIN_TOOL_OUTPUT_CHARS}, got ${String(value)}.`,
    );
  }
  return value;
}
