import type { AgentMiddleware, AgentTypeConfig, AnyAnnotationRoot, ReactAgent } from "langchain";
import { withThreadClaimCleanup } from "../approval/once.js";
import { validateAskUser } from "../ask-user/middleware.js";
import { withFastReads } from "../checkpoint/delta-history.js";
import { validateDeferTools } from "../deferral/defer-option.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { withUnwrappedErrors } from "../errors/unwrap.js";
import type { filesystemMiddleware } from "../filesystem/middleware.js";
import { withRunScopes } from "../limits/budget.js";
import { limitsMiddleware } from "../limits/middleware.js";
import { recursionLimitFor, withRecursionStop } from "../limits/recursion.js";
import { validateLimits } from "../limits/types.js";
import { LazyChatModel } from "../models/lazy-chat-model.js";
import { modelRetryLayer, validateModelRetry } from "../models/model-retry.js";
import { validatePermissions } from "../permissions/index.js";
import { profileKeyOf } from "../profiles/keys.js";
import { resolveProfile } from "../profiles/resolve.js";
import { SURFACE_PROBE_NAME } from "../surface/probe.js";
import { type SurfacePlan, surfacePlanOf } from "../surface/surface-plan.js";
import { rememberAgent } from "./agent-info.js";
import { buildStack } from "./assemble.js";
import { BUILTIN_TOOL_NAMES } from "./builtin-names.js";
import { type CompileInput, compileStack } from "./compile.js";
import { debugMiddleware } from "./debug.js";
import type { CreateDeepAgentOptions } from "./deep-agent-options.js";
import type { StackMiddleware, StackModel } from "./langchain-types.js";
import { checkOptionKeys, validateCache, validateInterruptOn } from "./options.js";
import { composeSystemPrompt, registeredToolNames, visibleToolNames } from "./stack-spec.js";
import { validateToolErrorsOption } from "./tool-errors.js";
import { type NormalizedTool, normalizeTools } from "./user-tools.js";

export { BUILTIN_TOOL_NAMES };

/**
 * Tasks (parallel tool calls) LangGraph runs at once (override per call with
 * `maxConcurrency`). Unbounded, each finished task races all running ones, so a model that
 * sends 10,000 calls in one turn costs quadratic time.
 */
export const DEFAULT_MAX_CONCURRENCY = 64;

/**
 * Steps a run may take before LangGraph stops it (override per call with `recursionLimit`);
 * raised above what `limits.modelCalls` needs. Reaching it ends the run with a `limit` marker.
 */
export const DEFAULT_RECURSION_LIMIT = 10_000;

/**
 * The compiled agent `createDeepAgent` returns: LangChain's agent (invoke, stream, graph),
 * typed with Delve's state, so `invoke` takes and returns `messages` and `files` (a typo
 * such as `fils` does not compile) and `result.files["/a.md"]` is a `FileData`. The state of
 * middleware passed in `middleware` is typed too (`todoListMiddleware()` adds `todos`).
 */
export type DeepAgent<Middleware extends readonly AgentMiddleware[] = readonly []> = ReactAgent<
  AgentTypeConfig<
    Record<string, unknown>,
    undefined,
    AnyAnnotationRoot,
    readonly [ReturnType<typeof filesystemMiddleware>, ...Middleware]
  >
>;

/**
 * Builds a deep agent on LangChain's `createAgent`: the file tools over a backend, a
 * `task` tool with a general-purpose subagent (and yours), an outermost tool-error layer,
 * context management, harness profiles, your tools and middleware; it returns LangChain's
 * compiled agent. The order of the middleware stack is `MIDDLEWARE_ORDER`. A middleware of
 * yours named like a default replaces it in place.
 *
 * @example
 * const agent = createDeepAgent({ model: "anthropic:claude-sonnet-4-6", tools: [getTicket] });
 * const out = await agent.invoke({ messages: [{ role: "user", content: "Brief me on T-1001" }] });
 */
export function createDeepAgent<const Middleware extends readonly AgentMiddleware[] = readonly []>(
  options: CreateDeepAgentOptions & { middleware?: Middleware },
): DeepAgent<Middleware> {
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
  const maxDepth = options.maxSubagentDepth ?? 1;
  if (!Number.isInteger(maxDepth) || maxDepth < 0) {
    throw new ConfigurationError("INVALID_OPTION", "maxSubagentDepth must be a whole number >= 0.");
  }
  const snapshotEvery = options.checkpointSnapshotEvery;
  if (snapshotEvery !== undefined && (!Number.isInteger(snapshotEvery) || snapshotEvery < 1)) {
    throw new ConfigurationError(
      "INVALID_OPTION",
      "checkpointSnapshotEvery must be a whole number >= 1.",
    );
  }
  const cache = validateCache(options.cache);
  const limits = validateLimits(options.limits);
  const modelRetry = validateModelRetry(options.modelRetry);
  const userTools = normalizeTools(options.tools);
  const warnings: string[] = [];
  checkToolNames(userTools, conflict, warnings);
  const userMiddleware: StackMiddleware[] = [...(options.middleware ?? [])];
  checkMiddlewareList(userMiddleware);
  if (options.backend && userMiddleware.some((m) => m.name === "FilesystemMiddleware")) {
    warnings.push(
      "backend is ignored: the FilesystemMiddleware passed in middleware brings its own backend.",
    );
  }

  const key = profileKeyOf(model, options.profileKey);
  const profile = resolveProfile(key.key, options.profile);
  const stack = buildStack({
    model,
    tools: userTools,
    userMiddleware,
    backend: options.backend,
    rules: validatePermissions(options.permissions ?? []),
    toolErrors,
    profile,
    subagents: options.subagents,
    generalPurpose: maxDepth >= 1,
    depth: 0,
    maxDepth,
    strictExclusions: Boolean(options.profile?.excludedMiddleware?.length),
    path: "",
    snapshotEvery,
    deferTools: validateDeferTools(options.deferTools),
    askUser: validateAskUser(options.askUser),
    systemPrompt: options.systemPrompt,
    context: {
      memory: options.memory,
      skills: options.skills,
      toolTokenLimitBeforeEvict: options.toolTokenLimitBeforeEvict,
      maxEvictedBytesPerThread: options.maxEvictedBytesPerThread,
      contextWindow: options.contextWindow,
      summarization: options.summarization,
      harnessBackend: options.harnessBackend,
    },
    resolveModel: (m) => {
      const resolved = resolveModel(m);
      return {
        model: resolved,
        profile: resolveProfile(profileKeyOf(resolved).key, options.profile),
      };
    },
    limits: limitsMiddleware(limits),
    ...(modelRetry ? { modelRetry: modelRetryLayer(modelRetry) } : {}),
    extraMiddleware: options.debug ? [debugMiddleware()] : [],
    interruptOn: validateInterruptOn(options.interruptOn, "interruptOn"),
    interruptOnGiven: true,
    cache,
  });
  if (stack.approvalReasons.length && !options.checkpointer) {
    throw new ConfigurationError(
      "CHECKPOINTER_REQUIRED",
      `${stack.approvalReasons.join(", ")} pause${stack.approvalReasons.length === 1 ? "s" : ""} the run for a human decision, which needs a checkpointer to resume from: pass checkpointer: new MemorySaver() (or SqliteSaver from @langchain/langgraph-checkpoint-sqlite to survive restarts) and invoke with a thread_id.`,
      { reasons: stack.approvalReasons },
    );
  }
  if (!maxDepth && options.subagents?.length) {
    throw new ConfigurationError(
      "SUBAGENT_DEPTH",
      "subagents were given but maxSubagentDepth is 0. Raise it to 1 or remove them.",
    );
  }

  const params: CompileInput = {
    model,
    tools: stack.tools,
    systemPrompt: composeSystemPrompt(options.systemPrompt, profile),
    middleware: stack.middleware,
    responseFormat: options.responseFormat,
    stateSchema: options.stateSchema,
    contextSchema: options.contextSchema,
    store: options.store,
    name: options.name,
    snapshotEvery,
  };
  const recursionLimit = recursionLimitFor(limits, DEFAULT_RECURSION_LIMIT);
  const agent = withRecursionStop(
    withRunScopes(
      withUnwrappedErrors(
        compileStack({
          ...params,
          // The saver reads a long thread back fast (see withFastReads), and deleting a thread
          // deletes its approval claims.
          checkpointer: withFastReads(withThreadClaimCleanup(options.checkpointer)),
          cache,
          // A deep agent takes many steps: LangGraph's default limit of 25 would end real runs early.
          defaults: {
            recursionLimit,
            maxConcurrency: DEFAULT_MAX_CONCURRENCY,
          },
        }),
      ),
    ),
    recursionLimit,
  ) as unknown as DeepAgent<Middleware>;
  stack.setVisible(visibleToolNames(agent, stack.middleware));

  const plans = stack.middleware
    .map(surfacePlanOf)
    .filter((p): p is SurfacePlan => p !== undefined);
  let probe: any;
  rememberAgent(agent, {
    probe: () => {
      probe ??= options.checkpointer ? compileStack(params) : agent;
      return probe;
    },
    registered: () => registeredToolNames(agent),
    sources: new Map(userTools.map((t) => [t.name, t.source])),
    plans,
    warnings,
    modelKey: key.key,
    modelKeySource: key.source,
    profilesApplied: profile.applied,
    approvalReasons: [...stack.approvalReasons],
  });
  for (const warning of warnings) console.warn(`[delve] ${warning}`);
  return agent;
}

function resolveModel(model: unknown): StackModel {
  if (typeof model === "string") return new LazyChatModel(model);
  if (model && typeof model === "object" && typeof (model as StackModel).invoke === "function") {
    return model as StackModel;
  }
  throw new ConfigurationError(
    "INVALID_MODEL",
    'model is required: pass a LangChain chat model instance or a "provider:model" string such as "openai:gpt-5.5".',
  );
}

function checkToolNames(
  tools: NormalizedTool[],
  conflict: "warn" | "error" | "ignore",
  warnings: string[],
): void {
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
  for (const name of tools.map((t) => t.name).filter((n) => BUILTIN_TOOL_NAMES.includes(n))) {
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
}

function checkMiddlewareList(list: readonly StackMiddleware[]): void {
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
