import { SystemMessage } from "@langchain/core/messages";
import type { BackendProtocol } from "../backends/protocol.js";
import { StateBackend } from "../backends/state.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { approvalMiddleware, type NormalizedInterruptOn } from "../middleware/approval.js";
import type { PathApprovalGate } from "../middleware/approval-scope.js";
import {
  FILESYSTEM_MIDDLEWARE_NAME,
  FS_TOOL_NAMES,
  filesystemMiddleware,
} from "../middleware/filesystem.js";
import { pathApprovalGateOf, setPathApprovalGate } from "../middleware/permission-guard.js";
import {
  GENERAL_PURPOSE_SUBAGENT,
  SUBAGENT_MIDDLEWARE_NAME,
  subAgentMiddleware,
} from "../middleware/subagents.js";
import { surfacePlanOf } from "../middleware/surface-plan.js";
import {
  TOOL_ERRORS_MIDDLEWARE_NAME,
  type ToolErrorsOption,
  toolErrorsMiddleware,
} from "../middleware/tool-errors.js";
import { toolExclusionMiddleware } from "../middleware/tool-exclusion.js";
import type { PermissionRule } from "../permissions/index.js";
import type { ResolvedProfile } from "../profiles/index.js";
import { SURFACE_PROBE_NAME, surfaceProbeMiddleware } from "../surface/probe.js";
import { TASK_TOOL_NAME } from "../tools/task.js";
import { buildSubagents } from "./build-subagents.js";
import {
  CONTEXT_LAYER_NAMES,
  type ContextSettings,
  contextLayers,
  harnessRouting,
  withReplacements,
} from "./context-layers.js";
import { checkInterruptOnNames } from "./options.js";
import type { CompiledSubAgent, SubAgent } from "./subagent-specs.js";
import type { NormalizedTool } from "./user-tools.js";

const present = <T>(value: T | undefined): T[] => (value === undefined ? [] : [value]);

/** Built-in tool names a user tool can shadow. */
export const BUILTIN_TOOL_NAMES: readonly string[] = [...FS_TOOL_NAMES, TASK_TOOL_NAME];

/** Everything one agent's stack is built from (the main agent or a declarative subagent). */
export interface StackSpec {
  model: any;
  tools: NormalizedTool[];
  userMiddleware: any[];
  backend?: BackendProtocol;
  rules: readonly PermissionRule[];
  toolErrors: ToolErrorsOption;
  profile: ResolvedProfile;
  /** Declarative or compiled subagents; undefined means only the general-purpose one. */
  subagents?: Array<SubAgent | CompiledSubAgent>;
  /** Whether this stack may have the general-purpose subagent (subagents of subagents: no). */
  generalPurpose: boolean;
  depth: number;
  maxDepth: number;
  /** Per-agent profile fields whose names must match something (construction errors). */
  strictExclusions: boolean;
  /** Where this stack is in the tree, for error messages ("subagents[1]"). */
  path: string;
  /** Resolves a subagent's own model and profile. */
  resolveModel: (model: unknown) => { model: any; profile: ResolvedProfile };
  /** Hook for middleware the caller adds after the user's (e.g. `debug`). */
  extraMiddleware?: any[];
  /** Tools gated by human approval (validated `interruptOn`). */
  interruptOn: NormalizedInterruptOn;
  /**
   * True when `interruptOn` was given for this agent itself: a key naming none of its tools
   * is then an error. Inherited gates apply to whichever of the tools it has.
   */
  interruptOnGiven: boolean;
  /** Context management: memory, skills, eviction, summarization, harness files. */
  context: ContextSettings;
  /** Set for subagents: the parent already mounted the harness directories. */
  harness?: BackendProtocol;
  /** The name used for this agent's transcript file (subagents). */
  agentName?: string;
}

/** A built stack: the middleware list in order and what the factory needs to know. */
export interface BuiltStack {
  middleware: any[];
  tools: any[];
  /** Tools excluded by the profile, with the key that excluded them. */
  excludedBy: ReadonlyMap<string, string>;
  /** Set once the agent exists: visible tool names, for the unknown-tool message. */
  setVisible: (names: string[]) => void;
  /** What pauses for human approval in this stack or its subagents (needs a checkpointer). */
  approvalReasons: string[];
}

const DEFAULT_NAMES = [
  TOOL_ERRORS_MIDDLEWARE_NAME,
  FILESYSTEM_MIDDLEWARE_NAME,
  SUBAGENT_MIDDLEWARE_NAME,
  ...Object.values(CONTEXT_LAYER_NAMES),
];

/**
 * Builds one agent's middleware stack, outermost first: ToolErrorsMiddleware,
 * ApprovalMiddleware (when `interruptOn` or an `interrupt` path rule gates a tool),
 * EvictionMiddleware (unless `toolTokenLimitBeforeEvict: null`), FilesystemMiddleware,
 * SubAgentMiddleware (when a synchronous subagent exists), PatchToolCallsMiddleware,
 * SkillsMiddleware (with `skills`), the user's middleware, `extraMiddleware` (debug), the
 * profile's extra middleware, MemoryMiddleware (with `memory`, main agent only),
 * ToolExclusionMiddleware (when the profile excludes tools), SummarizationMiddleware (unless
 * `summarization: false`), SurfaceProbe. A user middleware named like a default replaces it
 * in place. The README's stack list must match this order.
 */
export function buildStack(spec: StackSpec): BuiltStack {
  const { profile } = spec.profile;
  const excludedBy = new Map(spec.profile.excludedBy);
  const hiddenByProfile = new Set(excludedBy.keys());
  const descriptions = profile.toolDescriptionOverrides ?? {};
  const replacement = (name: string) => spec.userMiddleware.find((m) => m.name === name);
  const shadowed = new Set(
    spec.tools.map((t) => t.name).filter((n) => BUILTIN_TOOL_NAMES.includes(n)),
  );

  let visible: string[] = [];
  const errorsLayer =
    replacement(TOOL_ERRORS_MIDDLEWARE_NAME) ??
    toolErrorsMiddleware({ mode: spec.toolErrors, visibleTools: () => visible });

  const ownFs = replacement(FILESYSTEM_MIDDLEWARE_NAME);
  const baseBackend: BackendProtocol =
    (ownFs ? surfacePlanOf(ownFs)?.backend : spec.backend) ?? new StateBackend();
  const routing = spec.harness
    ? { harness: spec.harness, agentBackend: baseBackend }
    : harnessRouting(baseBackend, spec.context.harnessBackend);
  const fsSettings = {
    permissions: spec.rules,
    hiddenElsewhere: hiddenByProfile,
    descriptions,
    ...(routing.agentBackend !== baseBackend ? { backend: routing.agentBackend } : {}),
  };
  const filesystem = withoutTools(
    ownFs
      ? rebuildWith(ownFs, fsSettings)
      : filesystemMiddleware({ backend: routing.agentBackend, ...fsSettings }),
    shadowed,
  );
  const fsBackend: BackendProtocol = surfacePlanOf(filesystem)?.backend ?? routing.agentBackend;
  const mentions = (tool: string) => visible.includes(tool);
  const context = (agentName: string | undefined, main: boolean) =>
    contextLayers(spec.context, {
      model: spec.model,
      harness: routing.harness,
      files: fsBackend,
      mentions,
      agentName,
      withMemory: main,
      withSkills: true,
    });
  // A user middleware named like a context layer replaces it in place.
  const own = withReplacements(context(spec.agentName, spec.depth === 0), replacement);

  const userExtras = spec.userMiddleware.filter((m) => !DEFAULT_NAMES.includes(m.name));
  const tools = spec.tools.map((t) => withDescription(t.value, descriptions[t.name]));

  // What the general-purpose subagent inherits, around its own summarization and skills.
  const gpContext = withReplacements(context(GENERAL_PURPOSE_SUBAGENT, false), replacement);
  const inherited = [
    errorsLayer,
    ...present(gpContext.eviction),
    filesystem,
    gpContext.patch,
    ...present(gpContext.skills),
    ...userExtras,
  ];
  const reasons = new Set<string>();
  const subagents = buildSubagents(
    spec,
    {
      tools,
      inherited,
      fsBackend,
      harness: routing.harness,
      excludedBy,
      summarization: gpContext.summarization,
    },
    reasons,
  );
  const subagentLayer =
    replacement(SUBAGENT_MIDDLEWARE_NAME) ??
    (subagents.length
      ? subAgentMiddleware({ subagents, taskDescription: descriptions[TASK_TOOL_NAME] })
      : undefined);

  let middleware = [
    errorsLayer,
    ...present(own.eviction),
    filesystem,
    ...(subagentLayer ? [withoutTools(subagentLayer, shadowed)] : []),
    own.patch,
    ...present(own.skills),
    ...userExtras,
    ...(spec.extraMiddleware ?? []),
    ...(profile.extraMiddleware ?? []),
    ...present(own.memory),
  ];
  middleware = applyExcludedMiddleware(middleware, profile.excludedMiddleware ?? [], spec);
  if (excludedBy.size) middleware.push(toolExclusionMiddleware(excludedBy));
  // Added after the profile's exclusions, which therefore cannot remove it.
  const approval = approvalLayer(spec, middleware, tools, spec.interruptOnGiven);
  if (approval) {
    middleware.splice(middleware.indexOf(errorsLayer) + 1, 0, approval.layer);
    for (const reason of approvalReasonsOf(spec, approval)) reasons.add(reason);
  }
  // Innermost model-call layer: it measures the request exactly as sent.
  middleware.push(...present(own.summarization));
  middleware.push(surfaceProbeMiddleware());
  return {
    middleware,
    tools,
    excludedBy,
    setVisible: (names) => (visible = names),
    approvalReasons: [...reasons],
  };
}

/**
 * The approval middleware of one stack, or undefined when nothing is gated: `interruptOn`
 * (checked against the stack's registered tools when `strict`, else narrowed to them) and
 * the filesystem middleware's `interrupt` path rules (its own file tools only).
 */
export function approvalLayer(
  spec: StackSpec,
  middleware: any[],
  tools: any[],
  strict: boolean,
): { layer: any; gates: string[]; pathGate: boolean } | undefined {
  const registered = [...tools, ...middleware.flatMap((m) => m.tools ?? [])];
  const names = registered.map((t) => t?.name).filter((n): n is string => typeof n === "string");
  let gates = spec.interruptOn;
  if (strict) checkInterruptOnNames(gates, names, `${spec.path}interruptOn`);
  else gates = new Map([...gates].filter(([name]) => names.includes(name)));
  const fs = middleware.find((m) => m.name === FILESYSTEM_MIDDLEWARE_NAME);
  const fsGate = pathApprovalGateOf(fs);
  const fsNames = new Set<string>((fs?.tools ?? []).map((t: any) => t.name));
  // A user tool that replaces a built-in file tool is not judged by path rules.
  const pathGate: PathApprovalGate | undefined =
    fsGate && ((call) => (fsNames.has(call.name) ? fsGate(call) : undefined));
  if (gates.size === 0 && !pathGate) return undefined;
  return {
    layer: approvalMiddleware({ interruptOn: gates, tools: registered, pathGate }),
    gates: [...gates.keys()],
    pathGate: Boolean(pathGate),
  };
}

// Names what pauses for approval, for the "needs a checkpointer" error.
function approvalReasonsOf(spec: StackSpec, facts: { gates: string[]; pathGate: boolean }) {
  const reasons = facts.gates.map((name) => `${spec.path}interruptOn.${name}`);
  if (facts.pathGate) {
    const indexes = spec.rules.flatMap((r, i) => (r.mode === "interrupt" ? [i] : []));
    reasons.push(
      ...(indexes.length
        ? indexes.map((i) => `${spec.path}permissions[${i}] (mode "interrupt")`)
        : [`${spec.path}FilesystemMiddleware permissions (mode "interrupt")`]),
    );
  }
  return reasons;
}

/** The system prompt: the user's, then the profile's base text, then its suffix. */
export function composeSystemPrompt(
  user: string | SystemMessage | undefined,
  resolved: ResolvedProfile,
): string | SystemMessage | undefined {
  const extra = [resolved.profile.baseSystemPrompt, resolved.profile.systemPromptSuffix]
    .filter((t): t is string => Boolean(t?.trim()))
    .join("\n\n");
  if (!extra) return user;
  if (user === undefined || user === "") return extra;
  if (typeof user === "string") return `${user}\n\n${extra}`;
  return user.concat(new SystemMessage(`\n\n${extra}`));
}

// Removes middleware a profile excludes. A per-agent profile naming nothing is an error.
function applyExcludedMiddleware(list: any[], names: string[], spec: StackSpec): any[] {
  for (const name of names) {
    if ([FILESYSTEM_MIDDLEWARE_NAME, SUBAGENT_MIDDLEWARE_NAME, SURFACE_PROBE_NAME].includes(name)) {
      throw new ConfigurationError(
        "REQUIRED_MIDDLEWARE",
        `excludedMiddleware cannot remove ${name}: it is the harness's skeleton. Narrow its tools instead.`,
      );
    }
    if (spec.strictExclusions && !list.some((m) => m.name === name)) {
      throw new ConfigurationError(
        "UNKNOWN_MIDDLEWARE",
        `The profile option excludes middleware "${name}", but the agent has none by that name. Present: ${list.map((m) => m.name).join(", ")}.`,
      );
    }
  }
  return list.filter((m) => !names.includes(m.name));
}

/** Registered tool names minus every hidden one: what the model is shown. */
export function visibleToolNames(agent: any, middleware: any[]): string[] {
  const hidden = new Set(middleware.flatMap((m) => [...(surfacePlanOf(m)?.hidden.keys() ?? [])]));
  return registeredToolNames(agent).filter((name) => !hidden.has(name));
}

/** Tool names in the agent's tool node. */
export function registeredToolNames(agent: any): string[] {
  const tools: any[] = agent?.graph?.nodes?.tools?.bound?.tools ?? [];
  return tools.map((t) => t.name);
}

// A replaced FilesystemMiddleware keeps the agent's permissions (an upstream bug drops them),
// its profile exclusions and description overrides.
function rebuildWith(
  middleware: any,
  settings: Parameters<NonNullable<ReturnType<typeof surfacePlanOf>>["rebuild"] & {}>[0],
) {
  const plan = surfacePlanOf(middleware);
  if (plan?.rebuild) return plan.rebuild(settings);
  if (settings.permissions?.length) {
    throw new ConfigurationError(
      "UNENFORCEABLE_PERMISSIONS",
      "permissions cannot be applied to the FilesystemMiddleware passed in middleware: it was not built by filesystemMiddleware(). Build it with filesystemMiddleware({ permissions }) instead.",
    );
  }
  return middleware;
}

// A middleware whose built-in tools a user tool replaces: same middleware, minus those tools.
function withoutTools<M extends { tools?: any[] }>(middleware: M, names: Set<string>): M {
  if (!middleware.tools?.some((t: any) => names.has(t.name))) return middleware;
  const copy = { ...middleware, tools: middleware.tools.filter((t: any) => !names.has(t.name)) };
  const plan = surfacePlanOf(middleware);
  if (plan) Object.defineProperty(copy, Symbol.for("delve.surfacePlan"), { value: plan });
  setPathApprovalGate(copy, pathApprovalGateOf(middleware));
  return copy;
}

// A user tool with a profile description override: the same tool, seen with new words.
function withDescription(tool: any, description: string | undefined): any {
  if (!description || typeof tool?.invoke !== "function") return tool;
  const copy = Object.create(tool);
  Object.defineProperty(copy, "description", { value: description, enumerable: true });
  return copy;
}
