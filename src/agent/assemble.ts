import { askUserMiddleware } from "../ask-user/middleware.js";
import { StateBackend } from "../backends/file-map/state.js";
import type { BackendProtocol } from "../backends/protocol/protocol.js";
import { profileContextWindow } from "../context/context-window.js";
import { deferralLayer } from "../deferral/layer.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { filesystemMiddleware } from "../filesystem/middleware.js";
import { pathApprovalGateOf, setPathApprovalGate } from "../filesystem/permission-guard.js";
import { outputBudgetFor } from "../filesystem/tools/output-budget.js";
import { toolExclusionMiddleware } from "../profiles/tool-exclusion.js";
import { buildSubagents } from "../subagents/build-subagents.js";
import { subAgentMiddleware } from "../subagents/middleware.js";
import { SURFACE_PROBE_NAME, surfaceProbeMiddleware } from "../surface/probe.js";
import { surfacePlanOf } from "../surface/surface-plan.js";
import {
  BUILTIN_TOOL_NAMES,
  FILESYSTEM_MIDDLEWARE_NAME,
  GENERAL_PURPOSE_SUBAGENT,
  SUBAGENT_MIDDLEWARE_NAME,
  TASK_TOOL_NAME,
} from "./builtin-names.js";
import {
  CONTEXT_LAYER_NAMES,
  contextLayers,
  harnessRouting,
  withReplacements,
} from "./context-layers.js";
import type { StackMiddleware, StackTool } from "./langchain-types.js";
import { providerRequestMiddleware } from "./provider-request.js";
import { approvalLayer, approvalReasonsOf, type BuiltStack, type StackSpec } from "./stack-spec.js";
import { TOOL_ERRORS_MIDDLEWARE_NAME, toolErrorsMiddleware } from "./tool-errors.js";

const present = <T>(value: T | undefined): T[] => (value === undefined ? [] : [value]);

const DEFAULT_NAMES = [
  TOOL_ERRORS_MIDDLEWARE_NAME,
  FILESYSTEM_MIDDLEWARE_NAME,
  SUBAGENT_MIDDLEWARE_NAME,
  ...Object.values(CONTEXT_LAYER_NAMES),
];

/**
 * Builds one agent's middleware stack in the order `MIDDLEWARE_ORDER` states (outermost
 * first; each layer present only in the case that list names). A user middleware named like
 * a default replaces it in place.
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
    : harnessRouting(baseBackend, spec.context.harnessBackend, spec.context);
  const fsSettings = {
    permissions: spec.rules,
    hiddenElsewhere: hiddenByProfile,
    descriptions,
    maxOutputChars: outputBudgetFor(profileContextWindow(spec.model)),
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
  const own = withReplacements(
    context(spec.agentName, spec.depth === 0 || spec.forked === true),
    replacement,
  );

  const userExtras = spec.userMiddleware.filter((m) => !DEFAULT_NAMES.includes(m.name));
  const tools = spec.tools.map((t) => withDescription(t.value, descriptions[t.name]));
  const deferral = deferralLayer({
    option: spec.deferTools ?? "auto",
    tools,
    hidden: hiddenByProfile,
    model: spec.model,
    contextWindow: spec.context.contextWindow,
    where: `${spec.path}deferTools`,
    strict: spec.depth === 0,
  });

  const askUser = spec.askUser ? askUserMiddleware(spec.askUser) : undefined;
  // What the general-purpose subagent inherits, around its own summarization and skills.
  const gpContext = withReplacements(context(GENERAL_PURPOSE_SUBAGENT, false), replacement);
  const inherited = [
    errorsLayer,
    ...present(gpContext.eviction),
    filesystem,
    ...present(askUser),
    gpContext.patch,
    ...present(gpContext.skills),
    ...userExtras,
    ...present(deferral),
  ];
  const reasons = new Set<string>(askUser && spec.depth === 0 ? ["askUser"] : []);
  const subagents = buildSubagents(
    buildStack,
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
      ? subAgentMiddleware({
          subagents,
          taskDescription: descriptions[TASK_TOOL_NAME],
          permissions: spec.rules,
        })
      : undefined);

  let middleware = [
    errorsLayer,
    ...present(own.eviction),
    filesystem,
    ...(subagentLayer ? [withoutTools(subagentLayer, shadowed)] : []),
    ...present(askUser),
    own.patch,
    ...present(own.skills),
    ...userExtras,
    ...(spec.extraMiddleware ?? []),
    ...(profile.extraMiddleware ?? []),
    ...present(own.memory),
  ];
  middleware = applyExcludedMiddleware(middleware, profile.excludedMiddleware ?? [], spec);
  if (excludedBy.size) middleware.push(toolExclusionMiddleware(excludedBy));
  middleware.push(...present(deferral));
  // Added after the profile's exclusions, which therefore cannot remove it.
  const approval = approvalLayer(spec, middleware, tools, spec.interruptOnGiven);
  if (approval) {
    middleware.splice(middleware.indexOf(errorsLayer) + 1, 0, approval.layer);
    for (const reason of approvalReasonsOf(spec, approval)) reasons.add(reason);
  }
  // Innermost model-call layer: it measures the request exactly as sent.
  middleware.push(...present(own.summarization));
  middleware.push(surfaceProbeMiddleware(), providerRequestMiddleware());
  return {
    middleware,
    tools,
    excludedBy,
    setVisible: (names) => (visible = names),
    approvalReasons: [...reasons],
  };
}

// Removes middleware a profile excludes. A per-agent profile naming nothing is an error.
function applyExcludedMiddleware(
  list: StackMiddleware[],
  names: string[],
  spec: StackSpec,
): StackMiddleware[] {
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

// A replaced FilesystemMiddleware keeps the agent's permissions (an upstream bug drops them),
// its profile exclusions and description overrides.
function rebuildWith(
  middleware: StackMiddleware,
  settings: Parameters<NonNullable<ReturnType<typeof surfacePlanOf>>["rebuild"] & {}>[0],
): StackMiddleware {
  const plan = surfacePlanOf(middleware);
  // The plan of a filesystemMiddleware() rebuilds a filesystemMiddleware().
  if (plan?.rebuild) return plan.rebuild(settings) as StackMiddleware;
  if (settings.permissions?.length) {
    throw new ConfigurationError(
      "UNENFORCEABLE_PERMISSIONS",
      "permissions cannot be applied to the FilesystemMiddleware passed in middleware: it was not built by filesystemMiddleware(). Build it with filesystemMiddleware({ permissions }) instead.",
    );
  }
  return middleware;
}

// A middleware whose built-in tools a user tool replaces: same middleware, minus those tools.
function withoutTools<M extends { tools?: readonly StackTool[] }>(
  middleware: M,
  names: Set<string>,
): M {
  const replaced = (t: StackTool) => typeof t.name === "string" && names.has(t.name);
  if (!middleware.tools?.some(replaced)) return middleware;
  const copy = { ...middleware, tools: middleware.tools.filter((t) => !replaced(t)) };
  const plan = surfacePlanOf(middleware);
  if (plan) Object.defineProperty(copy, Symbol.for("delve.surfacePlan"), { value: plan });
  setPathApprovalGate(copy, pathApprovalGateOf(middleware));
  return copy;
}

// A user tool with a profile description override: the same tool, seen with new words.
function withDescription(tool: StackTool, description: string | undefined): StackTool {
  if (!description || typeof tool?.invoke !== "function") return tool;
  const copy = Object.create(tool);
  Object.defineProperty(copy, "description", { value: description, enumerable: true });
  return copy;
}
