import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { SystemMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver, BaseStore } from "@langchain/langgraph";
import { type AgentMiddleware, createAgent } from "langchain";
import type { BackendProtocol } from "../backends/protocol.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import {
  FILESYSTEM_MIDDLEWARE_NAME,
  FS_TOOL_NAMES,
  filesystemMiddleware,
} from "../middleware/filesystem.js";
import { SUBAGENT_MIDDLEWARE_NAME, subAgentMiddleware } from "../middleware/subagents.js";
import { type SurfacePlan, surfacePlanOf } from "../middleware/surface-plan.js";
import {
  TOOL_ERRORS_MIDDLEWARE_NAME,
  type ToolErrorsOption,
  toolErrorsMiddleware,
  validateToolErrorsOption,
} from "../middleware/tool-errors.js";
import { LazyChatModel } from "../models/lazy-chat-model.js";
import { type PermissionRule, validatePermissions } from "../permissions/index.js";
import { SURFACE_PROBE_NAME, surfaceProbeMiddleware } from "../surface/probe.js";
import { TASK_TOOL_NAME } from "../tools/task.js";
import { rememberAgent } from "./agent-info.js";
import { debugMiddleware } from "./debug.js";
import { checkOptionKeys } from "./options.js";
import { type AgentTool, type NormalizedTool, normalizeTools } from "./user-tools.js";

/** Built-in tool names a user tool can shadow. */
export const BUILTIN_TOOL_NAMES: readonly string[] = [...FS_TOOL_NAMES, TASK_TOOL_NAME];

/** Options of `createDeepAgent`. Unknown keys are refused; see the README for each one. */
export interface CreateDeepAgentOptions {
  /** A LangChain chat model instance, or `"provider:model"` resolved on its first call. */
  model: string | BaseChatModel;
  /** Extra tools: LangChain tools, `{ name, description, schema, func }`, provider dicts. */
  tools?: AgentTool[];
  /** The system prompt. Delve adds no authored prompt of its own. */
  systemPrompt?: string | SystemMessage;
  /** Extra middleware; one named like a default (e.g. FilesystemMiddleware) replaces it. */
  middleware?: AgentMiddleware[];
  /** Where the file tools' files live. Default: `new StateBackend()` (graph state). */
  backend?: BackendProtocol;
  /** Path rules for the file tools (first match wins; allow / deny). Kept when FilesystemMiddleware is replaced. */
  permissions?: PermissionRule[];
  /** Structured output, as `createAgent`'s `responseFormat`. */
  responseFormat?: any;
  /** Extra state, as `createAgent`'s `stateSchema`. */
  stateSchema?: any;
  /** Runtime context schema: values tools read at run time and the model never sees. */
  contextSchema?: any;
  /** Saves each thread's messages and files (MemorySaver, SQLite, PostgreSQL). */
  checkpointer?: BaseCheckpointSaver | boolean;
  /** A LangGraph store handed to tools and store-backed backends. */
  store?: BaseStore;
  /** Logs every model call and tool call to stderr. */
  debug?: boolean;
  /** The agent's name (graph name, streamed metadata). */
  name?: string;
  /** Tool failures: true catch all (default), false rethrow, error classes, or a formatter. */
  toolErrors?: ToolErrorsOption;
  /** A user tool named like a built-in replaces it; this says whether to warn (default), error or stay silent. */
  onToolNameConflict?: "warn" | "error" | "ignore";
  // Accepted keys whose features have not landed; passing them throws NOT_IMPLEMENTED.
  subagents?: never;
  skills?: never;
  memory?: never;
  interruptOn?: never;
  cache?: never;
  profile?: never;
  profileKey?: never;
}

/** The compiled agent `createDeepAgent` returns: LangChain's agent (invoke, stream, graph). */
export type DeepAgent = ReturnType<typeof createAgent>;

/**
 * Builds a deep agent on LangChain's `createAgent`: the file tools over a backend, a
 * `task` tool with a general-purpose subagent, an outermost tool-error layer, your tools and
 * middleware. The stack, outermost first: ToolErrorsMiddleware, FilesystemMiddleware,
 * SubAgentMiddleware, your middleware, then an inert recorder used by `inspectSurface`.
 *
 * @example
 * const agent = createDeepAgent({ model: "anthropic:claude-sonnet-4-6", tools: [getTicket] });
 * const out = await agent.invoke({ messages: [{ role: "user", content: "Brief me on T-1001" }] });
 */
export function createDeepAgent(options: CreateDeepAgentOptions): DeepAgent {
  checkOptionKeys(options);
  const model = resolveModel(options.model);
  const toolErrors = validateToolErrorsOption(options.toolErrors);
  const conflict = options.onToolNameConflict ?? "warn";
  if (!["warn", "error", "ignore"].includes(conflict)) {
    throw new ConfigurationError(
      "INVALID_OPTION",
      `onToolNameConflict must be "warn", "error" or "ignore" (got ${JSON.stringify(conflict)}).`,
    );
  }
  const userTools = normalizeTools(options.tools);
  const warnings: string[] = [];
  const shadowed = shadowedBuiltins(userTools, conflict, warnings);

  const userMiddleware = [...(options.middleware ?? [])] as any[];
  checkMiddlewareList(userMiddleware);
  const replacement = (name: string) => userMiddleware.find((m) => m.name === name);
  const extraMiddleware = userMiddleware.filter(
    (m) =>
      ![TOOL_ERRORS_MIDDLEWARE_NAME, FILESYSTEM_MIDDLEWARE_NAME, SUBAGENT_MIDDLEWARE_NAME].includes(
        m.name,
      ),
  );
  if (options.debug) extraMiddleware.unshift(debugMiddleware());

  let visibleNames: string[] = [];
  const errorsLayer =
    replacement(TOOL_ERRORS_MIDDLEWARE_NAME) ??
    toolErrorsMiddleware({ mode: toolErrors, visibleTools: () => visibleNames });
  const rules = validatePermissions(options.permissions ?? []);
  const filesystem = withoutTools(
    withPermissions(
      replacement(FILESYSTEM_MIDDLEWARE_NAME) ??
        filesystemMiddleware({ backend: options.backend, permissions: rules }),
      rules,
      Boolean(replacement(FILESYSTEM_MIDDLEWARE_NAME)),
    ),
    shadowed,
  );
  if (options.backend && replacement(FILESYSTEM_MIDDLEWARE_NAME)) {
    warnings.push(
      "backend is ignored: the FilesystemMiddleware passed in middleware brings its own backend.",
    );
  }
  const toolValues = userTools.map((t) => t.value);
  const subagentContext = [errorsLayer, filesystem, ...extraMiddleware];
  const subagents = withoutTools(
    replacement(SUBAGENT_MIDDLEWARE_NAME) ??
      subAgentMiddleware({ model, tools: toolValues, middleware: subagentContext }),
    shadowed,
  );
  const middleware = [
    errorsLayer,
    filesystem,
    subagents,
    ...extraMiddleware,
    surfaceProbeMiddleware(),
  ];

  const params = {
    model,
    tools: toolValues,
    systemPrompt: options.systemPrompt,
    middleware,
    responseFormat: options.responseFormat,
    stateSchema: options.stateSchema,
    contextSchema: options.contextSchema,
    store: options.store,
    name: options.name,
  } as any;
  const agent = createAgent({ ...params, checkpointer: options.checkpointer }) as DeepAgent;

  const plans = middleware.map(surfacePlanOf).filter((p): p is SurfacePlan => p !== undefined);
  const registered = () => registeredToolNames(agent);
  const hidden = new Set(plans.flatMap((p) => [...p.hidden.keys()]));
  visibleNames = registered().filter((name) => !hidden.has(name));
  let probe: any;
  rememberAgent(agent, {
    probe: () => {
      probe ??= options.checkpointer ? createAgent(params) : agent;
      return probe;
    },
    registered,
    sources: new Map(userTools.map((t) => [t.name, t.source])),
    plans,
    warnings,
    modelKey: model instanceof LazyChatModel ? model.spec.key : undefined,
  });
  for (const warning of warnings) console.warn(`[delve] ${warning}`);
  return agent;
}

function resolveModel(model: unknown): any {
  if (typeof model === "string") return new LazyChatModel(model);
  if (model && typeof model === "object" && typeof (model as any).invoke === "function") {
    return model;
  }
  throw new ConfigurationError(
    "INVALID_MODEL",
    'model is required: pass a LangChain chat model instance or a "provider:model" string such as "openai:gpt-5.5".',
  );
}

function shadowedBuiltins(
  tools: NormalizedTool[],
  conflict: "warn" | "error" | "ignore",
  warnings: string[],
): Set<string> {
  const seen = new Map<string, number>();
  tools.forEach((t, index) => {
    const first = seen.get(t.name);
    if (first !== undefined) {
      throw new ConfigurationError(
        "DUPLICATE_TOOL",
        `tools[${first}] and tools[${index}] are both named "${t.name}". Tool names must be unique.`,
        { tool: t.name },
      );
    }
    seen.set(t.name, index);
  });
  const shadowed = new Set(tools.map((t) => t.name).filter((n) => BUILTIN_TOOL_NAMES.includes(n)));
  for (const name of shadowed) {
    const message = `Your tool "${name}" replaces the built-in ${name}: the model sees and runs yours.`;
    if (conflict === "error") {
      throw new ConfigurationError(
        "TOOL_NAME_CONFLICT",
        `${message} Rename it, or pass onToolNameConflict: "warn" to allow the replacement.`,
        { tool: name },
      );
    }
    if (conflict === "warn") warnings.push(message);
  }
  return shadowed;
}

function checkMiddlewareList(list: any[]): void {
  list.forEach((m, index) => {
    if (!m || typeof m !== "object" || typeof m.name !== "string") {
      throw new ConfigurationError(
        "INVALID_MIDDLEWARE",
        `middleware[${index}] is not a middleware: build it with createMiddleware({ name, ... }).`,
        { index },
      );
    }
    if (m.name === SURFACE_PROBE_NAME) {
      throw new ConfigurationError(
        "INVALID_MIDDLEWARE",
        `middleware[${index}] uses the reserved name ${SURFACE_PROBE_NAME}.`,
      );
    }
  });
}

// A middleware whose built-in tools a user tool replaces: same middleware, minus those tools.
function withoutTools<M extends { tools?: any[] }>(middleware: M, names: Set<string>): M {
  if (!middleware.tools?.some((t: any) => names.has(t.name))) return middleware;
  const copy = { ...middleware, tools: middleware.tools.filter((t: any) => !names.has(t.name)) };
  const plan = surfacePlanOf(middleware);
  if (plan) {
    Object.defineProperty(copy, Symbol.for("delve.surfacePlan"), { value: plan });
  }
  return copy;
}

// A replaced FilesystemMiddleware keeps the agent's permissions (an upstream bug drops them).
function withPermissions(middleware: any, rules: readonly PermissionRule[], replaced: boolean) {
  if (!replaced || rules.length === 0) return middleware;
  const plan = surfacePlanOf(middleware);
  if (!plan?.rebuild) {
    throw new ConfigurationError(
      "UNENFORCEABLE_PERMISSIONS",
      "permissions cannot be applied to the FilesystemMiddleware passed in middleware: it was not built by filesystemMiddleware(). Build it with filesystemMiddleware({ permissions }) instead.",
    );
  }
  return plan.rebuild(rules);
}

function registeredToolNames(agent: any): string[] {
  const node = agent?.graph?.nodes?.tools;
  const tools: any[] = node?.bound?.tools ?? [];
  return tools.map((t) => t.name);
}
