import type { RunEvent, RunResult } from "../run/events.js";
import {
  count,
  diffLines,
  FOLDED_LINES,
  foldedResult,
  type Line,
  shortArgs,
  textLines,
} from "./lines.js";

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
  /** The folded tool results not shown in full yet, oldest first (ctrl+o shows them). */
  readonly folded: Array<{ tool: string; output: string }> = [];
  /** ctrl+o's expand-all: while on, each tool result shows whole. */
  expanded = false;
  readonly #calls = new Map<string, { tool: string; indent: number }>();
  /** The text a model is writing now (its deltas so far), until its whole text arrives. */
  live: { agent: string; text: string } | undefined;

  constructor(
    private readonly write: (lines: Line[]) => void,
    readonly status: StatusInfo,
  ) {}

  /**
   * ctrl+o toggles expand-all (as Claude Code's ctrl+o shows the whole transcript): on, the
   * lines of every folded result so far in full, oldest first, and later results come whole;
   * off, they fold again. Returns the lines to write and the notice to show.
   */
  toggleExpanded(): { lines: Line[]; notice: string } {
    this.expanded = !this.expanded;
    if (!this.expanded)
      return { lines: [], notice: "tool results fold again (ctrl+o shows them all)" };
    const shown = this.folded.splice(0);
    const n = shown.length;
    return {
      lines: shown.flatMap((r, i) => [
        {
          text: `full result of ${r.tool}${n > 1 ? ` (${i + 1}/${n})` : ""}:`,
          tone: "dim" as const,
        },
        ...textLines(r.output, "plain", 2),
      ]),
      notice: `${n ? "" : "no folded result yet · "}expanded: tool results show in full (ctrl+o folds them)`,
    };
  }

  #flushLive(mark = ""): void {
    const live = this.live;
    this.live = undefined;
    if (live?.text.trim()) this.write(agentText(live.agent, `${live.text.trimEnd()}${mark}`));
  }

  /** Writes the lines of one event; returns the result when the event is the last one. */
  event(e: RunEvent): RunResult | undefined {
    switch (e.type) {
      case "text_delta":
        // Another agent's text begins: what the last one wrote so far stays on screen.
        if (this.live && this.live.agent !== e.agent) this.#flushLive();
        this.live = { agent: e.agent, text: (this.live?.text ?? "") + e.text };
        return undefined;
      case "text": {
        // The whole text replaces the growing block, in the same screen update.
        if (this.live?.agent === e.agent) this.live = undefined;
        this.write(agentText(e.agent, e.text));
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
          this.expanded ? Number.POSITIVE_INFINITY : FOLDED_LINES,
        );
        if (folded) this.folded.push({ tool: e.tool, output });
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
        // A turn cut off mid-text (Esc): what it wrote stays, marked as cut.
        if (this.live) this.#flushLive(" …");
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

/** An agent's text as transcript lines: the main agent's plain, a subagent's dim, indented. */
export function agentText(agent: string, text: string): Line[] {
  return textLines(text, agent === "main" ? "assistant" : "dim", agent === "main" ? 0 : 4);
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
