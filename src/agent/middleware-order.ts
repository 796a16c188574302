import { APPROVAL_MIDDLEWARE_NAME } from "../approval/middleware.js";
import { ASK_USER_MIDDLEWARE_NAME } from "../ask-user/question.js";
import { DEFERRAL_MIDDLEWARE_NAME } from "../deferral/names.js";
import { LIMITS_MIDDLEWARE_NAME } from "../limits/types.js";
import { MODEL_RETRY_MIDDLEWARE_NAME } from "../models/model-retry.js";
import { TOOL_EXCLUSION_MIDDLEWARE_NAME } from "../profiles/tool-exclusion.js";
import { SURFACE_PROBE_NAME } from "../surface/probe.js";
import { FILESYSTEM_MIDDLEWARE_NAME, SUBAGENT_MIDDLEWARE_NAME } from "./builtin-names.js";
import { CONTEXT_LAYER_NAMES } from "./context-layers.js";
import { PROVIDER_REQUEST_MIDDLEWARE_NAME } from "./provider-request.js";
import { TOOL_ERRORS_MIDDLEWARE_NAME } from "./tool-errors.js";

/** One place in the default middleware stack: a Delve layer, or a slot an option fills. */
export interface MiddlewareSlot {
  /** The middleware's `name`; for an option slot, the option it comes from. */
  readonly name: string;
  /** `"layer"`: Delve's own middleware. `"option"`: the caller's middleware from `name`. */
  readonly kind: "layer" | "option";
  /** When it is in the stack. */
  readonly when: string;
}

/**
 * The order of the middleware stack `createDeepAgent` builds, outermost first (the first one
 * wraps all the others). This list is the one statement of the order: `buildStack` produces
 * it, and a test builds an agent with every layer on and compares. A middleware of the
 * caller's named like a Delve layer replaces that layer in place.
 *
 * @example
 * MIDDLEWARE_ORDER.filter((s) => s.kind === "layer").map((s) => s.name) // ["ToolErrorsMiddleware", ...]
 */
export const MIDDLEWARE_ORDER = [
  { name: TOOL_ERRORS_MIDDLEWARE_NAME, kind: "layer", when: "always" },
  {
    name: APPROVAL_MIDDLEWARE_NAME,
    kind: "layer",
    when: "with `interruptOn` or an `interrupt` path rule (added after profile exclusions)",
  },
  {
    name: CONTEXT_LAYER_NAMES.eviction,
    kind: "layer",
    when: "unless `toolTokenLimitBeforeEvict: null`",
  },
  { name: FILESYSTEM_MIDDLEWARE_NAME, kind: "layer", when: "always" },
  { name: SUBAGENT_MIDDLEWARE_NAME, kind: "layer", when: "when a synchronous subagent exists" },
  { name: ASK_USER_MIDDLEWARE_NAME, kind: "layer", when: "with `askUser`" },
  { name: CONTEXT_LAYER_NAMES.patch, kind: "layer", when: "always" },
  { name: CONTEXT_LAYER_NAMES.skills, kind: "layer", when: "with `skills`" },
  { name: "middleware", kind: "option", when: "the caller's middleware, in the order given" },
  { name: "DebugMiddleware", kind: "layer", when: "with `debug: true`" },
  { name: "profile.extraMiddleware", kind: "option", when: "the harness profile's middleware" },
  { name: CONTEXT_LAYER_NAMES.memory, kind: "layer", when: "with `memory` (main agent only)" },
  {
    name: TOOL_EXCLUSION_MIDDLEWARE_NAME,
    kind: "layer",
    when: "when the profile excludes tools",
  },
  {
    name: DEFERRAL_MIDDLEWARE_NAME,
    kind: "layer",
    when: "when `deferTools` defers a tool (by default: tools over 5% of the window)",
  },
  {
    name: LIMITS_MIDDLEWARE_NAME,
    kind: "layer",
    when: "always (budgets of `limits`, the loop guard unless `limits.loop: false`)",
  },
  { name: CONTEXT_LAYER_NAMES.summarization, kind: "layer", when: "unless `summarization: false`" },
  { name: SURFACE_PROBE_NAME, kind: "layer", when: "always (inert unless `inspectSurface` runs)" },
  {
    name: MODEL_RETRY_MIDDLEWARE_NAME,
    kind: "layer",
    when: "unless `modelRetry: false` (retries 429, 5xx, dropped connections, timeouts)",
  },
  {
    name: PROVIDER_REQUEST_MIDDLEWARE_NAME,
    kind: "layer",
    when: "always (rewrites the request for the model's provider, never the saved state)",
  },
] as const satisfies readonly MiddlewareSlot[];

/** The name of one slot of `MIDDLEWARE_ORDER`. */
export type MiddlewareSlotName = (typeof MIDDLEWARE_ORDER)[number]["name"];
