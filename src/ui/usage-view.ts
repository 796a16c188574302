// Usage and cost of a thread per model and per agent (the main agent, each subagent, the
// summarizer), summed from the usage records its checkpoints hold.
import type { StepView, UsageView } from "./thread-view.js";

/** One bar of the usage chart: the calls of one model or one agent. */
export interface UsageGroup {
  name: string;
  calls: number;
  input: number;
  output: number;
  /** null when a model's price is unknown. */
  cost_usd: number | null;
}

/** What `GET /api/threads/:id/usage` answers. */
export interface UsageBreakdown {
  by_model: UsageGroup[];
  by_agent: UsageGroup[];
  total: UsageGroup;
}

function group(records: UsageView[], key: (u: UsageView) => string): UsageGroup[] {
  const groups = new Map<string, UsageGroup>();
  for (const u of records) {
    const name = key(u);
    const g = groups.get(name) ?? { name, calls: 0, input: 0, output: 0, cost_usd: 0 };
    g.calls += 1;
    g.input += u.input;
    g.output += u.output;
    g.cost_usd = g.cost_usd === null || u.cost_usd === null ? null : g.cost_usd + u.cost_usd;
    groups.set(name, g);
  }
  // Costliest first; unknown costs after, by tokens.
  return [...groups.values()].sort(
    (a, b) => (b.cost_usd ?? -1) - (a.cost_usd ?? -1) || b.input + b.output - a.input - a.output,
  );
}

/** The thread's model calls grouped by model and by agent, with the total. */
export function usageBreakdown(steps: StepView[]): UsageBreakdown {
  const records = steps.flatMap((s) => s.usage);
  return {
    by_model: group(records, (u) => u.model),
    by_agent: group(records, (u) => u.agent),
    total: group(records, () => "total")[0] ?? {
      name: "total",
      calls: 0,
      input: 0,
      output: 0,
      cost_usd: 0,
    },
  };
}
