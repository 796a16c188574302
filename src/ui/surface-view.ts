// The tool surface of a thread's agent as the viewer charts it: what each visible tool costs
// on every model call, the system prompt's share, what is hidden and why, what is deferred.
import { estimateTokens } from "../surface/estimate-tokens.js";
import type { SurfaceReport } from "../surface/inspect-surface.js";

/** One bar: a tool, or the system prompt. */
export interface SurfaceBar {
  name: string;
  kind: "system_prompt" | "builtin" | "user" | "provider" | "mcp";
  server?: string;
  chars: number;
  tokens: number;
}

/** What `GET /api/threads/:id/surface` answers. */
export interface SurfaceView {
  /** The system prompt first, then the visible tools by size, largest first. */
  bars: SurfaceBar[];
  /** Characters and estimated tokens of everything the first request carries. */
  total: { chars: number; tokens: number };
  /** The system prompt's share of `total.tokens`, 0 to 1. */
  system_prompt_share: number;
  hidden: Array<{ name: string; reason: string }>;
  /** Tools held back until `search_tools` loads them; null when nothing is deferred. */
  deferred: { bars: SurfaceBar[]; index: { chars: number; tokens: number } } | null;
  /** Tools that pause for an approval, as construction names them. */
  approval: string[];
}

const bar = (t: SurfaceReport["tools"][number]): SurfaceBar => ({
  name: t.name,
  kind: t.source,
  ...(t.server ? { server: t.server } : {}),
  chars: t.chars,
  tokens: t.tokens,
});

/** The chart's data from `inspectSurface`'s report. */
export function surfaceView(report: SurfaceReport): SurfaceView {
  const prompt: SurfaceBar = {
    name: "system prompt",
    kind: "system_prompt",
    chars: report.systemPromptChars,
    tokens: estimateTokens(report.systemPrompt),
  };
  const tools = report.tools.map(bar).sort((a, b) => b.tokens - a.tokens);
  const total = {
    chars: prompt.chars + report.totalChars,
    tokens: prompt.tokens + report.totalTokens,
  };
  return {
    bars: [prompt, ...tools],
    total,
    system_prompt_share: total.tokens ? prompt.tokens / total.tokens : 0,
    hidden: report.hidden,
    deferred: report.deferred
      ? {
          bars: report.deferred.tools.map(bar).sort((a, b) => b.tokens - a.tokens),
          index: { chars: report.deferred.indexChars, tokens: report.deferred.indexTokens },
        }
      : null,
    approval: report.approval,
  };
}
