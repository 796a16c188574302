import { compileStack } from "../agent/compile.js";
import type { StackTool } from "../agent/langchain-types.js";
import { validateInterruptOn } from "../agent/options.js";
import type { StackLayers } from "../agent/stack-order.js";
import {
  composeSystemPrompt,
  orderWithApproval,
  type StackBuilder,
  type StackSpec,
  visibleToolNames,
} from "../agent/stack-spec.js";
import { normalizeTools } from "../agent/user-tools.js";
import type { BackendProtocol } from "../backends/protocol/protocol.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { writesConfinedTo } from "../filesystem/permission-guard.js";
import { validatePermissions } from "../permissions/index.js";
import {
  GENERAL_PURPOSE_DESCRIPTION,
  GENERAL_PURPOSE_PROMPT,
  GENERAL_PURPOSE_SUBAGENT,
} from "./middleware.js";
import { isCompiledSubAgent, validateSubagents } from "./specs.js";
import type { TaskSubagent } from "./task.js";

/**
 * Builds the subagents `task` can reach from one stack: the general-purpose one (the
 * parent's model, tools, inherited middleware and gates) and each declarative or compiled
 * spec, a declarative one as a stack of its own one level deeper.
 */
export function buildSubagents(
  buildStack: StackBuilder,
  spec: StackSpec,
  parent: {
    tools: StackTool[];
    /** The general-purpose subagent's layers (its own summarization and skills among them). */
    layers: StackLayers;
    fsBackend: BackendProtocol;
    harness: BackendProtocol;
  },
  reasons: Set<string>,
): TaskSubagent[] {
  const gp = spec.profile.profile.generalPurposeSubagent ?? {};
  const list: TaskSubagent[] = [];
  const specs = spec.subagents ? validateSubagents(spec.subagents, `${spec.path}subagents`) : [];
  const overridesGp = specs.some((s) => s.name === GENERAL_PURPOSE_SUBAGENT);
  if (spec.generalPurpose && gp.enabled !== false && !overridesGp) {
    // The general-purpose subagent inherits the parent's gates on the tools it has, and the
    // profile's exclusions (those naming only main-agent layers match nothing here).
    const { middleware } = orderWithApproval(spec, parent.layers, parent.tools, false, {
      names: spec.profile.profile.excludedMiddleware ?? [],
      strict: false,
    });
    // A forked general-purpose subagent speaks with the parent's prompt, as a forked spec.
    const forked = gp.mode === "fork";
    list.push({
      name: GENERAL_PURPOSE_SUBAGENT,
      description: gp.description ?? GENERAL_PURPOSE_DESCRIPTION,
      ...(forked ? { mode: "fork" as const } : {}),
      runnable: compileStack({
        model: spec.model,
        tools: parent.tools,
        systemPrompt: forked
          ? composeSystemPrompt(forkPrompt(spec.systemPrompt, gp.systemPrompt), spec.profile)
          : (gp.systemPrompt ?? GENERAL_PURPOSE_PROMPT),
        middleware,
        name: GENERAL_PURPOSE_SUBAGENT,
        snapshotEvery: spec.snapshotEvery,
        cache: spec.cache,
      }),
      sharesParentRules: true,
    });
  }
  specs.forEach((sub, index) => {
    if (isCompiledSubAgent(sub)) {
      list.push({
        name: sub.name,
        description: sub.description,
        runnable: sub.runnable,
        ...(sub.mode === "fork" ? { mode: "fork" as const } : {}),
      });
      return;
    }
    const where = `${spec.path}subagents[${index}] ("${sub.name}")`;
    if (sub.subagents?.length && spec.depth + 2 > spec.maxDepth) {
      throw new ConfigurationError(
        "SUBAGENT_DEPTH",
        `${where} lists subagents, which would nest ${spec.depth + 2} levels deep; maxSubagentDepth is ${spec.maxDepth}. Raise maxSubagentDepth or flatten the tree.`,
        { subagent: sub.name, maxSubagentDepth: spec.maxDepth },
      );
    }
    const own = sub.model
      ? spec.resolveModel(sub.model)
      : { model: spec.model, profile: spec.profile };
    // A fork speaks with the parent's prompt; its own text, if any, comes after it.
    const forked = sub.mode === "fork";
    const prompt = forked ? forkPrompt(spec.systemPrompt, sub.systemPrompt) : sub.systemPrompt;
    const child = buildStack({
      ...spec,
      model: own.model,
      profile: own.profile,
      tools: sub.tools ? normalizeTools(sub.tools) : spec.tools,
      userMiddleware: sub.middleware ? [...sub.middleware] : spec.userMiddleware,
      // With rules of its own, it still may not change what the parent may not write.
      backend: sub.permissions ? writesConfinedTo(parent.fsBackend, spec.rules) : parent.fsBackend,
      harness: parent.harness,
      agentName: sub.name,
      systemPrompt: prompt,
      forked: forked || undefined,
      rules: sub.permissions ? validatePermissions(sub.permissions) : spec.rules,
      subagents: sub.subagents,
      generalPurpose: false,
      depth: spec.depth + 1,
      path: `${where}.`,
      extraMiddleware: [],
      // Its own interruptOn replaces the parent's (like permissions); otherwise it inherits.
      interruptOn:
        sub.interruptOn !== undefined
          ? validateInterruptOn(sub.interruptOn, `${where}.interruptOn`)
          : spec.interruptOn,
      interruptOnGiven: sub.interruptOn !== undefined,
    });
    for (const reason of child.approvalReasons) reasons.add(reason);
    const runnable = compileStack({
      model: own.model,
      tools: child.tools,
      systemPrompt: composeSystemPrompt(prompt, own.profile),
      middleware: child.middleware,
      responseFormat: sub.responseFormat,
      name: sub.name,
      snapshotEvery: spec.snapshotEvery,
      cache: spec.cache,
    });
    child.setVisible(visibleToolNames(runnable, child.middleware));
    list.push({
      name: sub.name,
      description: sub.description,
      runnable,
      sharesParentRules: !sub.permissions,
      ...(forked ? { mode: "fork" as const } : {}),
    });
  });
  return list;
}

function forkPrompt(
  parent: StackSpec["systemPrompt"],
  own: string | undefined,
): StackSpec["systemPrompt"] {
  if (!own?.trim()) return parent;
  if (parent === undefined || parent === "") return own;
  return typeof parent === "string" ? `${parent}\n\n${own}` : parent.concat(`\n\n${own}`);
}
