// What the stack builder and subagent building share: the spec of one stack, the built result,
// and the pieces both use. A leaf of the two, so that neither imports the other: a declarative
// subagent is itself a stack, and buildSubagents receives the builder as a parameter.
import { SystemMessage } from "@langchain/core/messages";
import type { BaseCache } from "@langchain/langgraph-checkpoint";
import {
  APPROVAL_MIDDLEWARE_NAME,
  approvalMiddleware,
  type NormalizedInterruptOn,
} from "../approval/middleware.js";
import type { PathApprovalGate } from "../approval/scope.js";
import type { AskUserOption } from "../ask-user/middleware.js";
import type { BackendProtocol } from "../backends/protocol/protocol.js";
import type { DeferToolsOption } from "../deferral/defer-option.js";
import { pathApprovalGateOf } from "../filesystem/permission-guard.js";
import { registeredTools } from "../langchain-seam/agent-graph.js";
import type { PermissionRule } from "../permissions/index.js";
import type { ResolvedProfile } from "../profiles/resolve.js";
import type { CompiledSubAgent, SubAgent } from "../subagents/specs.js";
import { surfacePlanOf } from "../surface/surface-plan.js";
import { FILESYSTEM_MIDDLEWARE_NAME } from "./builtin-names.js";
import type { ContextSettings } from "./context-layers.js";
import type { StackMiddleware, StackModel, StackTool } from "./langchain-types.js";
import { checkInterruptOnNames } from "./options.js";
import { type Exclusions, orderStack, type StackLayers } from "./stack-order.js";
import type { ToolErrorsOption } from "./tool-errors.js";
import type { NormalizedTool } from "./user-tools.js";

/** Everything one agent's stack is built from (the main agent or a declarative subagent). */
export interface StackSpec {
  model: StackModel;
  tools: NormalizedTool[];
  userMiddleware: StackMiddleware[];
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
  resolveModel: (model: unknown) => { model: StackModel; profile: ResolvedProfile };
  /** The budgets and loop guard layer, shared by every stack of the tree. */
  limits?: StackMiddleware;
  /** The model-call retry layer (`modelRetry`), shared by every stack of the tree. */
  modelRetry?: StackMiddleware;
  /** Hook for middleware the caller adds after the user's (e.g. `debug`). */
  extraMiddleware?: StackMiddleware[];
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
  /** Delta channels (`messages`, `files`) save a full copy every this many updates. */
  snapshotEvery?: number;
  /** Serves repeated model calls of every stack of the tree. */
  cache?: BaseCache;
  /** Which of the stack's own tools are deferred (validated `deferTools`); subagents inherit it. */
  deferTools?: DeferToolsOption;
  /** The stack's own system prompt before profiles: what its forked subagents start with. */
  systemPrompt?: string | SystemMessage;
  /** True for a forked subagent: it loads memory into its prompt as the parent does. */
  forked?: boolean;
  /** Whether the stack (and its subagents) has `ask_user` (validated `askUser`). */
  askUser?: AskUserOption;
}

/** A built stack: the middleware list in order and what the factory needs to know. */
export interface BuiltStack {
  middleware: StackMiddleware[];
  tools: StackTool[];
  /** Tools excluded by the profile, with the key that excluded them. */
  excludedBy: ReadonlyMap<string, string>;
  /** Set once the agent exists: visible tool names, for the unknown-tool message. */
  setVisible: (names: string[]) => void;
  /** What pauses for human approval in this stack or its subagents (needs a checkpointer). */
  approvalReasons: string[];
}

/** Builds one stack from its spec (the main agent's, or a declarative subagent's). */
export type StackBuilder = (spec: StackSpec) => BuiltStack;

/**
 * The approval middleware of one stack, or undefined when nothing is gated: `interruptOn`
 * (checked against the stack's registered tools when `strict`, else narrowed to them) and
 * the filesystem middleware's `interrupt` path rules (its own file tools only).
 */
export function approvalLayer(
  spec: StackSpec,
  middleware: readonly StackMiddleware[],
  tools: readonly StackTool[],
  strict: boolean,
): { layer: StackMiddleware; gates: string[]; pathGate: boolean } | undefined {
  const registered = [...tools, ...middleware.flatMap((m) => m.tools ?? [])];
  const names = registered.map((t) => t?.name).filter((n): n is string => typeof n === "string");
  let gates = spec.interruptOn;
  if (strict) checkInterruptOnNames(gates, names, `${spec.path}interruptOn`);
  else gates = new Map([...gates].filter(([name]) => names.includes(name)));
  const fs = middleware.find((m) => m.name === FILESYSTEM_MIDDLEWARE_NAME);
  const fsGate = pathApprovalGateOf(fs);
  const fsNames = new Set((fs?.tools ?? []).map((t) => t.name));
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

/**
 * One stack's middleware in `MIDDLEWARE_ORDER`, with its approval layer when something in
 * it is gated (decided on the stack after the profile's exclusions, which cannot remove it).
 */
export function orderWithApproval(
  spec: StackSpec,
  layers: StackLayers,
  tools: readonly StackTool[],
  strict: boolean,
  exclusions: Exclusions,
): { middleware: StackMiddleware[]; approval?: ReturnType<typeof approvalLayer> } {
  const base = orderStack(layers, exclusions);
  const approval = approvalLayer(spec, base, tools, strict);
  if (!approval) return { middleware: base };
  const middleware = orderStack(
    { ...layers, [APPROVAL_MIDDLEWARE_NAME]: approval.layer },
    exclusions,
  );
  return { middleware, approval };
}

/** Names what pauses for approval, for the "needs a checkpointer" error. */
export function approvalReasonsOf(spec: StackSpec, facts: { gates: string[]; pathGate: boolean }) {
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

/** Registered tool names minus every hidden one: what the model is shown. */
export function visibleToolNames(agent: unknown, middleware: readonly StackMiddleware[]): string[] {
  const hidden = new Set(middleware.flatMap((m) => [...(surfacePlanOf(m)?.hidden.keys() ?? [])]));
  return registeredToolNames(agent).filter((name) => !hidden.has(name));
}

/** Tool names in the agent's tool node. */
export function registeredToolNames(agent: unknown): string[] {
  return registeredTools(agent)
    .map((t) => t.name)
    .filter((name): name is string => typeof name === "string");
}
