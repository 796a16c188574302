// The thread's tool surface: what the model is shown, what is registered but hidden and why,
// and what is deferred until search_tools loads it.
import { inspectSurface, type SurfaceTool } from "../../surface/index.js";
import type { RunSession } from "../engine.js";

/** What `toolsReport` returns. */
export interface ToolsReport {
  /** The tools handed to the model, with their size. */
  visible: SurfaceTool[];
  /** Registered but not shown, with the reason. */
  hidden: Array<{ name: string; reason: string }>;
  /** Held back until `search_tools` loads them (measured as they would be sent). */
  deferred: SurfaceTool[];
  /** Characters and estimated tokens of the visible tools' definitions. */
  totalChars: number;
  totalTokens: number;
}

/** The thread agent's tools as the surface inspector sees them. */
export async function toolsReport(session: RunSession): Promise<ToolsReport> {
  const surface = await inspectSurface(session.agent);
  return {
    visible: surface.tools,
    hidden: surface.hidden,
    deferred: surface.deferred?.tools ?? [],
    totalChars: surface.totalChars,
    totalTokens: surface.totalTokens,
  };
}
