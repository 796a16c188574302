import type { TaskOutcome, TrajectoryEvent } from "delve/evals";

type Call = [name: string, args: Record<string, unknown>];

/** A trajectory from a compact script: model turns (calls or text) and tool results. */
export function trajectory(
  ...steps: Array<
    Call[] | string | { result: string; failed?: boolean; code?: string; call?: number }
  >
): TrajectoryEvent[] {
  const events: TrajectoryEvent[] = [];
  let step = 0;
  let id = 0;
  const calls: Array<{ id: string; name: string; args: Record<string, unknown> }> = [];
  for (const s of steps) {
    if (typeof s === "string") events.push({ kind: "model", step: ++step, text: s, toolCalls: [] });
    else if (Array.isArray(s)) {
      const toolCalls = s.map(([name, args]) => ({ id: `c${++id}`, name, args }));
      calls.push(...toolCalls);
      events.push({ kind: "model", step: ++step, text: "", toolCalls });
    } else {
      const call = calls[s.call ?? calls.length - 1] as (typeof calls)[number];
      events.push({
        kind: "tool",
        callId: call.id,
        name: call.name,
        args: call.args,
        failed: s.failed ?? false,
        ...(s.code ? { code: s.code } : {}),
        content: s.result,
      });
    }
  }
  return events;
}

/** An outcome with sensible defaults. */
export function outcome(events: TrajectoryEvent[], extra: Partial<TaskOutcome> = {}): TaskOutcome {
  const last = events.filter((e) => e.kind === "model").at(-1);
  return {
    input: "task",
    trajectory: events,
    answer: last && last.kind === "model" ? last.text : "",
    files: {},
    seedFiles: {},
    mutates: { get_ticket: false, update_ticket: true, search_tickets: false },
    ...extra,
  };
}
