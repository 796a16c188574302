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
  readonly #calls = new Map<string, { tool: string; indent: number; by: string }>();
  /**
   * The texts models are writing now (their deltas so far), until each one's whole text
   * arrives: one block per writer, the main agent or one subagent run (its `task` call id).
   */
  readonly live = new Map<string, { agent: string; text: string }>();
  // Each `task` call's heading ("general-purpose: look into X"), and who wrote the last lines:
  // a subagent run's lines after another writer's come under their own heading.
  readonly #tasks = new Map<string, string>();
  #writer = "main";

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

  /** The live blocks as lines, each subagent run's under its task's heading. */
  liveLines(): Line[] {
    let writer = this.#writer;
    return [...this.live].flatMap(([by, live]) => {
      const lines = [...this.#heading(by, writer), ...agentText(live.agent, live.text)];
      writer = by;
      return lines;
    });
  }

  #heading(by: string, writer: string): Line[] {
    const heading = this.#tasks.get(by);
    return heading && by !== writer
      ? [{ text: `↳ ${heading}`, tone: "dim", indent: 2, truncate: true }]
      : [];
  }

  // Writes lines of `by` (the main agent, or a subagent run), under its heading if needed.
  #writeBy(by: string, lines: Line[]): void {
    this.write([...this.#heading(by, this.#writer), ...lines]);
    this.#writer = by;
  }

  #flushLive(mark = ""): void {
    for (const [by, live] of this.live)
      if (live.text.trim())
        this.#writeBy(by, agentText(live.agent, `${live.text.trimEnd()}${mark}`));
    this.live.clear();
  }

  /** Writes the lines of one event; returns the result when the event is the last one. */
  event(e: RunEvent): RunResult | undefined {
    switch (e.type) {
      case "text_delta": {
        const by = e.task ?? e.agent;
        const text = e.restart ? "" : (this.live.get(by)?.text ?? "");
        this.live.set(by, { agent: e.agent, text: text + e.text });
        return undefined;
      }
      case "text": {
        // The whole text replaces the growing block, in the same screen update.
        const by = e.task ?? e.agent;
        this.live.delete(by);
        this.#writeBy(by, agentText(e.agent, e.text));
        return undefined;
      }
      case "tool_call": {
        const indent = e.agent === "main" ? 0 : 4;
        const by = e.task ?? e.agent;
        this.#calls.set(e.call_id, { tool: e.tool, indent, by });
        const args = shortArgs(e.tool, e.args);
        if (e.tool === "task") this.#tasks.set(e.call_id, args);
        this.#writeBy(by, [
          { text: `● ${e.tool}${args ? ` ${args}` : ""}`, tone: "tool", indent, truncate: true },
        ]);
        return undefined;
      }
      case "tool_result": {
        const call = this.#calls.get(e.call_id) ?? { tool: e.tool, indent: 0, by: "main" };
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
        this.#writeBy(call.by, lines);
        return undefined;
      }
      case "file_changed": {
        const call = this.#calls.get(e.call_id);
        const indent = (call?.indent ?? 0) + 2;
        const verb = { create: "created", edit: "edited", delete: "deleted" }[e.op];
        this.#writeBy(call?.by ?? "main", [
          { text: `${verb} ${e.path}`, tone: "accent", indent },
          ...diffLines(e.diff, indent),
        ]);
        return undefined;
      }
      case "subagent":
        if (e.phase === "start") {
          // Right under its task call: this line is the run's heading.
          this.write([{ text: `▶ subagent ${e.name}`, tone: "dim", indent: 2 }]);
          this.#writer = e.call_id;
        } else
          this.#writeBy("main", [
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
        this.#flushLive(" …");
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
    return [
      { text: `✗ failed: ${r.error ?? "unknown error"}`, tone: "error" },
      // What to do next: nothing before the failure is lost.
      { text: "the thread is kept: type to try again, or /model to switch models", tone: "dim" },
    ];
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
