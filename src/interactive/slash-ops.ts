import type { ContextPart, RewindFile } from "../run/session-ops/index.js";
import {
  compactNow,
  contextReport,
  listTurns,
  previewRewind,
  rewind,
  threadDiff,
  toolsReport,
} from "../run/session-ops/index.js";
import { bar, diffLines, type Line, textLines, tokens } from "./lines.js";
import type { SlashHost } from "./slash-host.js";

// The slash commands over the thread's checkpoints and agent: /compact, /context, /tools,
// /rewind, /diff. The data comes from the engine's session operations; this file only draws.

type Handler = (c: SlashHost, arg: string) => Promise<void> | void;

const BAR = 20;

function partLine(part: ContextPart, of: number, indent = 2): Line {
  return {
    text: `${part.name.padEnd(18).slice(0, 18)} ${bar(of ? part.tokens / of : 0, BAR)} ${tokens(part.tokens).padStart(6)}`,
    indent,
    truncate: true,
  };
}

/** The thread-operation handlers, by command name. */
export const OPS_HANDLERS: Record<string, Handler> = {
  async context(c) {
    const r = await contextReport(c.session);
    // Bars share the used tokens between the parts; the head says how full the window is.
    const of = r.total.tokens;
    const toolTokens = r.tools.reduce((n, t) => n + t.tokens, 0);
    const fileTokens = r.files.reduce((n, f) => n + f.tokens, 0);
    const head = r.window
      ? `context: ${tokens(r.total.tokens)} of ${tokens(r.window)} tokens (${Math.round((100 * r.total.tokens) / r.window)}%)`
      : `context: ${tokens(r.total.tokens)} tokens (window unknown)`;
    c.write([
      { text: head, tone: "accent" },
      ...(r.window
        ? [
            {
              text: `${bar(r.total.tokens / r.window, BAR + 19)} window`,
              indent: 2,
              tone: "dim" as const,
            },
          ]
        : []),
      partLine(r.systemPrompt, of),
      partLine({ name: `tools (${r.tools.length})`, chars: 0, tokens: toolTokens }, of),
      ...r.tools.slice(0, 5).map((t) => partLine(t, of, 4)),
      ...(r.tools.length > 5
        ? [{ text: `… ${r.tools.length - 5} more tools (/tools)`, tone: "dim" as const, indent: 4 }]
        : []),
      partLine({ ...r.messages, name: `messages (${r.messages.count})` }, of),
      partLine({ name: `files (${r.files.length})`, chars: 0, tokens: fileTokens }, of),
      ...r.files.slice(0, 5).map((f) => partLine(f, of, 4)),
    ]);
  },
  async tools(c) {
    const r = await toolsReport(c.session);
    c.write([
      {
        text: `tools: ${r.visible.length} shown (${tokens(r.totalTokens)} tokens) · ${r.hidden.length} hidden · ${r.deferred.length} deferred`,
        tone: "accent",
      },
      ...r.visible.map((t) => ({
        text: `${t.name.padEnd(24).slice(0, 24)} ${tokens(t.tokens).padStart(6)} ${t.source}`,
        indent: 2,
        truncate: true,
      })),
      ...(r.hidden.length ? [{ text: "hidden", tone: "dim" as const }] : []),
      ...r.hidden.map((t) => ({ text: `${t.name}: ${t.reason}`, indent: 2, tone: "dim" as const })),
      ...(r.deferred.length
        ? [{ text: "deferred (search_tools loads them)", tone: "dim" as const }]
        : []),
      ...r.deferred.map((t) => ({
        text: `${t.name} ${tokens(t.tokens)}`,
        indent: 2,
        tone: "dim" as const,
      })),
    ]);
  },
  async diff(c) {
    const d = await threadDiff(c.session);
    if (!d.files.length) {
      c.write([{ text: "this thread changed no file", tone: "dim" }]);
      return;
    }
    c.write([
      { text: `this thread changed ${d.files.length} file(s)`, tone: "accent" },
      ...d.files.flatMap((f) => [
        { text: `${f.op} ${f.path}`, tone: "accent" as const, indent: 2 },
        ...diffLines(f.diff, 2),
      ]),
    ]);
  },
  async compact(c) {
    const r = await compactNow(c.session);
    c.write([
      r.compacted
        ? {
            text: `compacted: ${r.before.messages} → ${r.after.messages} messages, ${tokens(r.before.tokens)} → ${tokens(r.after.tokens)} tokens${r.transcript ? ` (transcript ${r.transcript})` : ""}`,
            tone: "ok",
          }
        : { text: "nothing old enough to summarize yet", tone: "dim" },
    ]);
  },
  async rewind(c, arg) {
    const turns = await listTurns(c.session);
    if (!turns.length) {
      c.notice("nothing to rewind: the thread has run no task");
      return;
    }
    if (!arg) {
      c.write([
        { text: "turns · /rewind N goes back to before turn N", tone: "accent" },
        ...turns.map((t) => ({
          text: `${String(t.turn).padStart(2)} ${t.task.replace(/\s+/g, " ")}`,
          indent: 2,
          truncate: true,
        })),
      ]);
      return;
    }
    // `/rewind N --force` (or -f) overwrites files changed on disk since the agent's write.
    const words = arg.split(/\s+/);
    const force = words.some((w) => w === "--force" || w === "-f");
    const n = Number(words.find((w) => !w.startsWith("-")));
    if (!Number.isInteger(n) || !turns.some((t) => t.turn === n)) {
      c.notice(`/rewind takes a turn number, 1 to ${turns.length} (and --force)`);
      return;
    }
    const plan = await previewRewind(c.session, n);
    const conflicts = plan.files.filter((f) => f.conflict).length;
    const body: Line[] = [
      ...plan.dropped
        .filter((m) => m.role === "human")
        .map((m) => ({ text: `undo: ${m.text}`, tone: "dim" as const, indent: 2, truncate: true })),
      ...plan.files.flatMap((f) => [
        {
          text: `${f.action} ${f.path}${fileNote(f, force)}`,
          tone: f.conflict || f.skipped ? ("warn" as const) : ("accent" as const),
          indent: 2,
        },
        ...diffLines(f.diff, 2),
      ]),
      ...plan.warnings.flatMap((w) => textLines(`note: ${w}`, "dim", 2)),
    ];
    if (!plan.files.length) body.push({ text: "no file changes to undo", tone: "dim", indent: 2 });
    if (conflicts && !force) {
      body.push({
        text: `${conflicts} kept (changed since) · /rewind ${n} --force overwrites`,
        tone: "warn",
        indent: 2,
      });
    }
    c.confirm(
      [
        {
          text: `rewind to before turn ${n}${force ? " (force)" : ""}: "${plan.turn.task}"?`,
          tone: "warn",
          bold: true,
          truncate: true,
        },
      ],
      body,
      async () => {
        const done = await rewind(c.session, n, { force });
        c.write([
          { text: `⟲ rewound to before turn ${n}`, tone: "ok" },
          ...(done.restored.length
            ? textLines(`restored ${done.restored.join(", ")}`, "ok", 2)
            : []),
          ...(done.deleted.length ? textLines(`deleted ${done.deleted.join(", ")}`, "ok", 2) : []),
          ...[...done.conflicts, ...done.skipped].map((f) => ({
            text: `left ${f.path}: ${(f.conflict ?? f.skipped ?? "").replace(/_/g, " ")}`,
            tone: "warn" as const,
            indent: 2,
          })),
        ]);
      },
    );
  },
};

// What rewind does with a file beyond its action: kept for a conflict (unless forced), not
// kept by the snapshot, or merged with changes made since.
function fileNote(f: RewindFile, force: boolean): string {
  if (f.skipped)
    return ` (${f.skipped === "binary" ? "binary" : "over 1 MiB"}: not kept, left as it is)`;
  if (f.conflict === "changed_on_disk") {
    return force ? " (changed on disk since: overwritten)" : " (changed on disk since: kept)";
  }
  if (f.conflict) return ` (${f.conflict.replace(/_/g, " ")}: kept)`;
  return f.merged ? " (changed on disk since: those changes kept)" : "";
}
