import { APPROVAL_MIDDLEWARE_NAME } from "../approval/middleware.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { TOOL_EXCLUSION_MIDDLEWARE_NAME } from "../profiles/tool-exclusion.js";
import { SURFACE_PROBE_NAME } from "../surface/probe.js";
import { FILESYSTEM_MIDDLEWARE_NAME, SUBAGENT_MIDDLEWARE_NAME } from "./builtin-names.js";
import { CONTEXT_LAYER_NAMES } from "./context-layers.js";
import type { StackMiddleware } from "./langchain-types.js";
import { MIDDLEWARE_ORDER, type MiddlewareSlotName } from "./middleware-order.js";
import { PROVIDER_REQUEST_MIDDLEWARE_NAME } from "./provider-request.js";

/** The middleware of one stack, by the slot of `MIDDLEWARE_ORDER` each fills. */
export type StackLayers = Partial<
  Record<MiddlewareSlotName, StackMiddleware | readonly StackMiddleware[] | undefined>
>;

// Slots filled after a profile's exclusions apply, which therefore cannot remove them.
const AFTER_EXCLUSIONS: readonly MiddlewareSlotName[] = [
  APPROVAL_MIDDLEWARE_NAME,
  TOOL_EXCLUSION_MIDDLEWARE_NAME,
  CONTEXT_LAYER_NAMES.summarization,
  SURFACE_PROBE_NAME,
  PROVIDER_REQUEST_MIDDLEWARE_NAME,
];

/** How a profile's `excludedMiddleware` applies to one stack. */
export interface Exclusions {
  names: readonly string[];
  /** A name matching no middleware of the stack is an error (a per-agent profile). */
  strict: boolean;
}

/**
 * Every stack's middleware list (the main agent's, the general-purpose subagent's, a
 * declarative subagent's): the layers in `MIDDLEWARE_ORDER`, outermost first, minus those a
 * profile excludes.
 *
 * @example
 * orderStack({ ToolErrorsMiddleware: errors, FilesystemMiddleware: fs, middleware: [mine] }, none)
 */
export function orderStack(layers: StackLayers, exclusions: Exclusions): StackMiddleware[] {
  const slots = MIDDLEWARE_ORDER.map((slot) => ({
    name: slot.name as MiddlewareSlotName,
    list: listOf(layers[slot.name as MiddlewareSlotName]),
  }));
  const excludable = slots.filter((s) => !AFTER_EXCLUSIONS.includes(s.name)).flatMap((s) => s.list);
  checkExclusions(excludable, exclusions);
  const excluded = (m: StackMiddleware) => exclusions.names.includes(m.name);
  return slots.flatMap((s) =>
    AFTER_EXCLUSIONS.includes(s.name) ? s.list : s.list.filter((m) => !excluded(m)),
  );
}

function listOf(value: StackLayers[MiddlewareSlotName]): readonly StackMiddleware[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value as StackMiddleware];
}

// The harness's skeleton cannot go; in a per-agent profile, a name must match something.
function checkExclusions(list: readonly StackMiddleware[], exclusions: Exclusions): void {
  for (const name of exclusions.names) {
    if ([FILESYSTEM_MIDDLEWARE_NAME, SUBAGENT_MIDDLEWARE_NAME, SURFACE_PROBE_NAME].includes(name)) {
      throw new ConfigurationError(
        "REQUIRED_MIDDLEWARE",
        `excludedMiddleware cannot remove ${name}: it is the harness's skeleton. Narrow its tools instead.`,
      );
    }
    if (exclusions.strict && !list.some((m) => m.name === name)) {
      throw new ConfigurationError(
        "UNKNOWN_MIDDLEWARE",
        `The profile option excludes middleware "${name}", but the agent has none by that name. Present: ${list.map((m) => m.name).join(", ")}.`,
      );
    }
  }
}
