import type { BackendProtocol } from "../backends/protocol/protocol.js";
import type { PermissionRule } from "../permissions/index.js";

/** Tool name -> why it is registered but not shown to the model. */
export type HiddenTools = Map<string, string>;

/** What a Delve middleware tells the factory and the inspector about its tools. */
export interface SurfacePlan {
  hidden: HiddenTools;
  backend?: BackendProtocol;
  /** Tools left out of requests until `search_tools` loads them, and their index text. */
  deferred?: { tools: readonly unknown[]; index: string };
  /**
   * Builds the same middleware again with the agent's settings added: permission rules checked
   * first, tools hidden elsewhere (never mentioned), description overrides (its own win).
   */
  rebuild?: (extra: {
    permissions?: readonly PermissionRule[];
    hiddenElsewhere?: ReadonlySet<string>;
    descriptions?: Readonly<Record<string, string>>;
    /** A backend replacing its own (its own with harness directories mounted). */
    backend?: BackendProtocol;
    /** The output budget sized from the agent's model, unless the middleware set its own. */
    maxOutputChars?: number;
  }) => object;
}

const PLAN = Symbol.for("delve.surfacePlan");

/** Attaches a plan to a middleware object. */
export function setSurfacePlan(middleware: object, plan: SurfacePlan): void {
  Object.defineProperty(middleware, PLAN, { value: plan, enumerable: false });
}

/** The plan a Delve middleware carries, if any. */
export function surfacePlanOf(middleware: unknown): SurfacePlan | undefined {
  if (typeof middleware !== "object" || middleware === null) return undefined;
  return (middleware as Record<symbol, SurfacePlan>)[PLAN];
}
