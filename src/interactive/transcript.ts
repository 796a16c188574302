import type { RunEvent, RunResult } from "../run/events.js";
import { count, diffLines, foldedResult, type Line, shortArgs, textLines } from "./lines.js";

/** What the status line shows; updated by usage and result events. */
export interface StatusInfo {
  model: string;
  approval: string;
  input: number;
  output: number;
  cost: number | null;
  /** Prompt tokens of the main agent's last model call: how full its window is. */
  context: number;
}

// Tools whose result is the diff shown by file_changed: their "Updated file" text adds nothing.
const FILE_TOOLS = new Set(["write_file", "edit_file", "delete"]);

/**
 * Folds run events into transcript lines: one line per tool call, results folded, diffs
 * coloured, subagent work indented under its task call. Pure: the controller writes the lines.
 */
export class TranscriptFolder {
  /** The full text of the last folded tool result (ctrl+o shows it). */
  lastFolded: { tool: string; output: string } | undefined;
  readonly #calls = new Map<string, { tool: string; indent: number }>();

  constructor(
    private readonly write: (lines: Line[]) => void,
    readonly status: StatusInfo,
  ) {}

  /** Writes the lines of one event; returns the result when the event is the last one. */
  event(e: RunEvent): RunResult | undefined {
    switch (e.type) {
      case "text": {
        const indent = e.agent === "main" ? 0 : 4;
        this.write(textLines(e.text, e.agent === "main" ? "assistant" : "dim", indent));
        return undefined;
      }
      case "tool_call": {
        const indent = e.agent === "main" ? 0 : 4;
        this.#calls.set(e.call_id, { tool: e.tool, indent });
        const args = shortArgs(e.tool, e.args);
        this.write([
          { text: `● ${e.tool}${args ? ` ${args}` : ""}`, tone: "tool", indent, truncate: true },
        ]);
        return undefined;
      }
      case "tool_result": {
        const call = this.#calls.get(e.call_id) ?? { tool: e.tool, indent: 0 };
        if (e.status === "success" && FILE_TOOLS.has(e.tool)) return undefined;
        if (e.tool === "task" && e.status === "success") return undefined;
        const output = e.output.trim() || "(no output)";
        const { lines, folded } = foldedResult(
          e.status === "error" ? `✗ ${output}` : output,
          e.status === "error" ? "error" : "dim",
          call.indent,
        );
        if (folded) this.lastFolded = { tool: e.tool, output };
        this.write(lines);
        return undefined;
      }
      case "file_changed": {
        const call = this.#calls.get(e.call_id);
        const indent = (call?.indent ?? 0) + 2;
        const verb = { create: "created", edit: "edited", delete: "deleted" }[e.op];
        this.write([
          { text: `${verb} ${e.path}`, tone: "accent", indent },
          ...diffLines(e.diff, indent),
        ]);
        return undefined;
      }
      case "subagent":
        if (e.phase === "start")
          this.write([{ text: `▶ subagent ${e.name}`, tone: "dim", indent: 2 }]);
        else
          this.write([
            {
              text: `◀ ${e.name} ${e.status === "error" ? "failed" : "done"}`,
              tone: e.status === "error" ? "error" : "dim",
              indent: 2,
            },
          ]);
        return undefined;
      case "usage":
        this.status.input += e.input;
        this.status.output += e.output;
        this.status.cost =
          e.cost_usd === null || this.status.cost === null ? null : this.status.cost + e.cost_usd;
        if (e.agent === "main") this.status.context = e.input;
        return undefined;
      case "result":
        this.status.input = e.usage.input;
        this.status.output = e.usage.output;
        this.status.cost = e.cost_usd;
        this.write(resultLines(e));
        return e;
      default:
        return undefined;
    }
  }
}

function resultLines(r: RunResult): Line[] {
  const seconds = `${(r.duration_ms / 1000).toFixed(1)}s`;
  if (r.status === "failed")
    return [{ text: `✗ failed: ${r.error ?? "unknown error"}`, tone: "error" }];
  if (r.status === "limit") {
    if (r.limit === "interrupted")
      return [{ text: "⏹ interrupted · the thread is kept; type to go on", tone: "warn" }];
    return [{ text: `⏹ ${r.error ?? "stopped at a limit"}`, tone: "warn" }];
  }
  if (r.status === "paused") return [];
  return [
    {
      text: `✓ done · ${count(r.turns, "turn")} · ${count(r.tool_calls, "tool call")} · ${seconds}`,
      tone: "dim",
    },
  ];
}
