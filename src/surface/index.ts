// The surface folder's boundary: the surface inspector and its token estimate. Every name here
// is public API, re-exported by the package root.

export { estimateTokens } from "./estimate-tokens.js";
export {
  type DeferredSurface,
  type InspectSurfaceOptions,
  inspectSurface,
  type SurfaceReport,
  type SurfaceTool,
  type SurfaceToolDefinition,
} from "./inspect-surface.js";
