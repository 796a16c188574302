import { HumanMessage } from "@langchain/core/messages";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { agentInfoOf } from "../agent/agent-info.js";
import { BUILTIN_TOOL_NAMES } from "../agent/builtin-names.js";
import { providerToolName } from "../agent/user-tools.js";
import { SEARCH_TOOLS_NAME } from "../deferral/names.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { estimateTokens } from "./estimate-tokens.js";
import { PROBE_KEY, type RecordedRequest } from "./probe.js";
import type { SurfacePlan } from "./surface-plan.js";

/** One tool as the model sees it, with what it costs on every turn. */
export interface SurfaceTool {
  name: string;
  source: "builtin" | "user" | "provider" | "mcp";
  /** For MCP tools: the server it comes from. */
  server?: string;
  /** name + description + JSON schema, as `convertToOpenAITool` produces them. */
  chars: number;
  /** Offline estimate of the same text's tokens. */
  tokens: number;
  /**
   * The tool exactly as it is described to the model: name, description and JSON schema (in
   * the OpenAI function format LangChain converts to), or a provider tool's dictionary as is.
   */
  definition: SurfaceToolDefinition;
}

/** A tool's model-facing definition: what `SurfaceTool.chars` counts. */
export type SurfaceToolDefinition =
  | { name: string; description: string; parameters: Record<string, unknown> }
  | Record<string, unknown>;

/** What `inspectSurface` reports. */
export interface SurfaceReport {
  /** Tool names in the tool node: what can run. */
  registered: string[];
  /** Tool names handed to the model. */
  visible: string[];
  /** Registered but not handed to the model, with why. */
  hidden: Array<{ name: string; reason: string }>;
  tools: SurfaceTool[];
  /** Sum of the visible tools' `chars`. */
  totalChars: number;
  /** Sum of the visible tools' `tokens`. */
  totalTokens: number;
  /** Characters of the system prompt the model receives. */
  systemPromptChars: number;
  /** The system prompt itself. */
  systemPrompt: string;
  /** The harness-profile key of the model, when it is known, and how it was found. */
  modelKey?: string;
  modelKeySource?: string;
  /** Harness profile keys that applied, in merge order ("agent" = the `profile` option). */
  profilesApplied: string[];
  /** Construction warnings (e.g. a user tool shadowing a built-in). */
  warnings: string[];
  /**
   * What pauses the agent for human approval, as construction names it: `interruptOn.NAME`
   * per gated tool (a subagent's with its path first), `permissions[i] (mode "interrupt")`.
   */
  approval: string[];
  /** Tools left out of the first request until `search_tools` loads them; absent when none. */
  deferred?: DeferredSurface;
}

/** The deferred part of a surface: what is held back, its index, and the cost without it. */
export interface DeferredSurface {
  /** The deferred tools, measured as they would be sent once loaded. */
  tools: SurfaceTool[];
  /** Characters and estimated tokens of the index in `search_tools`' description. */
  indexChars: number;
  indexTokens: number;
  /** The first request's tool definitions if nothing were deferred (no `search_tools`). */
  withoutDeferral: { totalChars: number; totalTokens: number };
}

/**
 * Options of `inspectSurface`, for agents whose prompt depends on the run: the runtime
 * context a `contextSchema` requires, and files that memory or skills read into the prompt.
 */
export interface InspectSurfaceOptions {
  /** Runtime context to run the request path with, for agents with a `contextSchema`. */
  context?: unknown;
  /** Files to seed the inspection run with. */
  files?: Record<string, string>;
}

/**
 * Shows exactly what the model is handed, without calling a provider: it runs the agent's
 * real model-request path (every middleware's filtering) into a recorder that stands in for
 * the model, so it cannot disagree with a real call. Works offline, with no API key.
 *
 * @example
 * const report = await inspectSurface(agent);
 * console.log(report.visible, report.totalChars);
 */
export async function inspectSurface(
  agent: object,
  options: InspectSurfaceOptions = {},
): Promise<SurfaceReport> {
  const info = agentInfoOf(agent);
  if (!info) {
    throw new ConfigurationError(
      "NOT_A_DEEP_AGENT",
      "inspectSurface takes an agent built by createDeepAgent.",
    );
  }
  let recorded: RecordedRequest | undefined;
  await info
    .probe()
    .invoke({ messages: [new HumanMessage("(surface inspection)")], files: options.files ?? {} }, {
      configurable: {
        [PROBE_KEY]: (r: RecordedRequest) => {
          recorded ??= r;
        },
        thread_id: `surface-inspection-${Date.now()}`,
      },
      context: options.context,
      // Room for the before/after-agent nodes of the default layers (limits, memory, skills).
      recursionLimit: 12,
    } as any);
  if (!recorded) {
    throw new ConfigurationError(
      "SURFACE_NOT_RECORDED",
      "The agent finished without a model request; a middleware may have ended the run early.",
    );
  }
  const registered = info.registered();
  const tools = recorded.tools.map((t) => measureTool(t, info.sources));
  const visible = tools.map((t) => t.name);
  const reasons = new Map(info.plans.flatMap((p) => [...p.hidden]));
  const deferred = deferredSurface(info.plans, tools, info.sources);
  const deferredNames = new Set(deferred?.tools.map((t) => t.name));
  const hidden = registered
    .filter((name) => !visible.includes(name) && !deferredNames.has(name))
    .map((name) => ({
      name,
      reason: reasons.get(name) ?? "removed from the request by a middleware",
    }));
  return {
    registered,
    visible,
    hidden,
    tools,
    totalChars: tools.reduce((sum, t) => sum + t.chars, 0),
    totalTokens: tools.reduce((sum, t) => sum + t.tokens, 0),
    systemPromptChars: recorded.systemPrompt.length,
    systemPrompt: recorded.systemPrompt,
    modelKey: info.modelKey,
    modelKeySource: info.modelKeySource,
    profilesApplied: info.profilesApplied ?? [],
    approval: info.approvalReasons ?? [],
    warnings: [...info.warnings],
    ...(deferred ? { deferred } : {}),
  };
}

function deferredSurface(
  plans: readonly SurfacePlan[],
  visible: readonly SurfaceTool[],
  sources: ReadonlyMap<string, "user" | "provider">,
): DeferredSurface | undefined {
  const plan = plans.find((p) => p.deferred)?.deferred;
  if (!plan) return undefined;
  const tools = plan.tools.map((t) => measureTool(t, sources));
  const inline = visible.filter((t) => t.name !== SEARCH_TOOLS_NAME);
  const all = [...inline, ...tools];
  return {
    tools,
    indexChars: plan.index.length,
    indexTokens: estimateTokens(plan.index),
    withoutDeferral: {
      totalChars: all.reduce((sum, t) => sum + t.chars, 0),
      totalTokens: all.reduce((sum, t) => sum + t.tokens, 0),
    },
  };
}

/** Measures one tool as the model receives it: name + description + JSON schema. */
export function measureTool(
  tool: any,
  sources: ReadonlyMap<string, "user" | "provider"> = new Map(),
): SurfaceTool {
  const isRunnable = typeof tool?.invoke === "function";
  if (!isRunnable) {
    const text = JSON.stringify(tool);
    return {
      name: providerToolName(tool),
      source: "provider",
      chars: text.length,
      tokens: estimateTokens(text),
      definition: tool,
    };
  }
  const fn = (convertToOpenAITool(tool) as any).function;
  const schema = JSON.stringify(fn.parameters ?? {});
  const text = `${fn.name}${fn.description ?? ""}${schema}`;
  const mcpServer = tool?.metadata?.mcpServer;
  const source = mcpServer
    ? "mcp"
    : sources.has(tool.name)
      ? "user"
      : BUILTIN_TOOL_NAMES.includes(tool.name)
        ? "builtin"
        : "user";
  return {
    name: fn.name,
    source,
    ...(mcpServer ? { server: String(mcpServer) } : {}),
    chars: text.length,
    tokens: estimateTokens(text),
    definition: {
      name: fn.name,
      description: fn.description ?? "",
      parameters: fn.parameters ?? {},
    },
  };
}
