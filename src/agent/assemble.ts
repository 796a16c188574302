import { askUserMiddleware } from "../ask-user/middleware.js";
import { ASK_USER_MIDDLEWARE_NAME } from "../ask-user/question.js";
import { StateBackend } from "../backends/file-map/state.js";
import type { BackendProtocol } from "../backends/protocol/protocol.js";
import { profileContextWindow } from "../context/context-window.js";
import { deferralLayer } from "../deferral/layer.js";
import { DEFERRAL_MIDDLEWARE_NAME } from "../deferral/names.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { filesystemMiddleware } from "../filesystem/middleware.js";
import { pathApprovalGateOf, setPathApprovalGate } from "../filesystem/permission-guard.js";
import { outputBudgetFor } from "../filesystem/tools/output-budget.js";
import { LIMITS_MIDDLEWARE_NAME } from "../limits/types.js";
import {
  TOOL_EXCLUSION_MIDDLEWARE_NAME,
  toolExclusionMiddleware,
} from "../profiles/tool-exclusion.js";
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
import { PROVIDER_REQUEST_MIDDLEWARE_NAME, providerRequestMiddleware } from "./provider-request.js";
import type { StackLayers } from "./stack-order.js";
import {
  approvalReasonsOf,
  type BuiltStack,
  orderWithApproval,
  type StackSpec,
} from "./stack-spec.js";
import { TOOL_ERRORS_MIDDLEWARE_NAME, toolErrorsMiddleware } from "./tool-errors.js";

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
  const toolExclusion = excludedBy.size ? toolExclusionMiddleware(excludedBy) : undefined;
  // The general-purpose subagent's stack: the parent's layers, with its own context layers
  // (transcript, skills), and no task, memory, debug, profile middleware or probe.
  // A forked one loads memory into its prompt as the parent does.
  const gpForked = spec.profile.profile.generalPurposeSubagent?.mode === "fork";
  const gpContext = withReplacements(context(GENERAL_PURPOSE_SUBAGENT, gpForked), replacement);
  const gpLayers: StackLayers = {
    [TOOL_ERRORS_MIDDLEWARE_NAME]: errorsLayer,
    [CONTEXT_LAYER_NAMES.eviction]: gpContext.eviction,
    [FILESYSTEM_MIDDLEWARE_NAME]: filesystem,
    [ASK_USER_MIDDLEWARE_NAME]: askUser,
    [CONTEXT_LAYER_NAMES.patch]: gpContext.patch,
    [CONTEXT_LAYER_NAMES.skills]: gpContext.skills,
    middleware: userExtras,
    [TOOL_EXCLUSION_MIDDLEWARE_NAME]: toolExclusion,
    [DEFERRAL_MIDDLEWARE_NAME]: deferral,
    [LIMITS_MIDDLEWARE_NAME]: spec.limits,
    [CONTEXT_LAYER_NAMES.summarization]: gpContext.summarization,
    [PROVIDER_REQUEST_MIDDLEWARE_NAME]: providerRequestMiddleware(),
  };
  const reasons = new Set<string>(askUser && spec.depth === 0 ? ["askUser"] : []);
  const subagents = buildSubagents(
    buildStack,
    spec,
    { tools, layers: gpLayers, fsBackend, harness: routing.harness },
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

  const { middleware, approval } = orderWithApproval(
    spec,
    {
      [TOOL_ERRORS_MIDDLEWARE_NAME]: errorsLayer,
      [CONTEXT_LAYER_NAMES.eviction]: own.eviction,
      [FILESYSTEM_MIDDLEWARE_NAME]: filesystem,
      [SUBAGENT_MIDDLEWARE_NAME]: subagentLayer && withoutTools(subagentLayer, shadowed),
      [ASK_USER_MIDDLEWARE_NAME]: askUser,
      [CONTEXT_LAYER_NAMES.patch]: own.patch,
      [CONTEXT_LAYER_NAMES.skills]: own.skills,
      middleware: userExtras,
      DebugMiddleware: spec.extraMiddleware,
      "profile.extraMiddleware": profile.extraMiddleware,
      [CONTEXT_LAYER_NAMES.memory]: own.memory,
      [TOOL_EXCLUSION_MIDDLEWARE_NAME]: toolExclusion,
      [DEFERRAL_MIDDLEWARE_NAME]: deferral,
      [LIMITS_MIDDLEWARE_NAME]: spec.limits,
      // Innermost model-call layer: it measures the request exactly as sent.
      [CONTEXT_LAYER_NAMES.summarization]: own.summarization,
      [SURFACE_PROBE_NAME]: surfaceProbeMiddleware(),
      [PROVIDER_REQUEST_MIDDLEWARE_NAME]: providerRequestMiddleware(),
    },
    tools,
    spec.interruptOnGiven,
    { names: profile.excludedMiddleware ?? [], strict: spec.strictExclusions },
  );
  if (approval) for (const reason of approvalReasonsOf(spec, approval)) reasons.add(reason);
  return {
    middleware,
    tools,
    excludedBy,
    setVisible: (names) => (visible = names),
    approvalReasons: [...reasons],
  };
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
