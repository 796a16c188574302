import type { SurfacePlan } from "../surface/surface-plan.js";

/** What `createDeepAgent` remembers about an agent, for the surface inspector. */
export interface AgentInfo {
  /** An agent with the same model, tools and middleware but no checkpointer, for probing. */
  probe: () => { invoke(input: any, config?: any): Promise<any> };
  /** Registered tool names, as in the tool node. */
  registered: () => string[];
  /** Where each user-supplied tool came from. */
  sources: Map<string, "user" | "provider">;
  /** Plans of the Delve middleware in the stack (hidden tools and their reasons). */
  plans: SurfacePlan[];
  warnings: string[];
  /** The harness-profile key of the model, when known, and how it was found. */
  modelKey?: string;
  modelKeySource?: string;
  /** What pauses the agent for a human (`interruptOn.NAME`, path rules), as construction names them. */
  approvalReasons?: string[];
  /** The profile keys that applied, in merge order ("agent" = the profile option). */
  profilesApplied?: string[];
}

// One registry per process, not per module copy: an agent module that loads its own copy of
// Delve (the CLI from dist/, the module through TypeScript from src/) is still recognised.
const REGISTRY = Symbol.for("delve.agent-info");
const registryHolder = globalThis as Record<symbol, WeakMap<object, AgentInfo> | undefined>;
registryHolder[REGISTRY] ??= new WeakMap<object, AgentInfo>();
const INFO = registryHolder[REGISTRY];

export function rememberAgent(agent: object, info: AgentInfo): void {
  INFO.set(agent, info);
}

export function agentInfoOf(agent: object): AgentInfo | undefined {
  return INFO.get(agent);
}
