import type { RunEvent, RunResult } from "../run/events.js";

/** The exit code of a run's result: 0 completed, 1 failed, 3 paused, 124 a limit. */
export function exitCodeOf(result: RunResult | undefined): number {
  if (!result) return 1;
  return { completed: 0, failed: 1, paused: 3, limit: 124 }[result.status];
}

/** How `--output` prints events: stream-json every event, json the result, text for people. */
export type OutputMode = "text" | "json" | "stream-json";

const short = (value: unknown, max = 120) => {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
};

/** Prints each event to stdout / stderr by mode; returns the result once it is seen. */
export function printer(mode: OutputMode, out = process.stdout, err = process.stderr) {
  let result: RunResult | undefined;
  const print = (event: RunEvent) => {
    if (event.type === "result") result = event;
    if (mode === "stream-json") {
      out.write(`${JSON.stringify(event)}\n`);
      return;
    }
    if (mode === "json") {
      if (event.type === "result") {
        const { v: _v, type: _t, ...rest } = event;
        out.write(`${JSON.stringify(rest, null, 2)}\n`);
      }
      return;
    }
    const line = (text: string) => err.write(`${text}\n`);
    switch (event.type) {
      case "thread":
        line(
          `thread ${event.thread_id} (${event.resumed ? "resumed" : "new"}) · ${event.model} · sandbox ${event.sandbox} · approval ${event.approval}`,
        );
        break;
      case "tool_call":
        line(
          `${event.agent === "main" ? "" : `[${event.agent}] `}→ ${event.tool} ${short(event.args)}`,
        );
        break;
      case "tool_result":
        if (event.status === "error") line(`  ✗ ${event.tool}: ${short(event.output)}`);
        break;
      case "file_changed":
        line(`  ${event.op} ${event.path}`);
        break;
      case "approval_required":
        line(
          `waiting for approval: ${event.tool} ${short(event.args)}\n  ${event.description}\n  decide: delve approve ${event.thread_id} --call ${event.call_id} [--reject]${event.suggested_rule ? `\n  or allow it for good: "${event.suggested_rule}" in .delve/config.json rules.allow` : ""}`,
        );
        break;
      case "question_required": {
        const choices = event.choices?.length
          ? `\n  choices: ${event.choices.map((c) => JSON.stringify(c)).join(" | ")}${event.multiple ? " (several allowed)" : ""}`
          : "";
        line(
          `question: ${event.question}${choices}${event.error ? `\n  (${event.error})` : ""}\n  answer: delve answer ${event.thread_id} "TEXT"${event.choices?.length ? ` or --choice ${JSON.stringify(event.choices[0])}` : ""}`,
        );
        break;
      }
      case "subagent":
        line(`${event.phase === "start" ? "▶" : "◀"} subagent ${event.name}`);
        break;
      case "result": {
        if (event.answer) out.write(`${event.answer}\n`);
        const tokens = `${event.usage.input} in / ${event.usage.output} out tokens`;
        const cost = event.cost_usd === null ? "cost unknown" : `$${event.cost_usd.toFixed(4)}`;
        line(
          `${event.status}${event.error ? `: ${event.error}` : ""} · ${event.turns} turns · ${event.tool_calls} tool calls · ${tokens} · ${cost} · ${event.duration_ms} ms`,
        );
        break;
      }
      default:
        break;
    }
  };
  return { print, result: () => result };
}
