import { costReport } from "../run/session-ops/index.js";
import { openThreadsDb } from "../run/threads-db.js";
import type { UsageTotals } from "../run/usage.js";
import { type Line, tokens, usd } from "./lines.js";
import { findCommand, KEYS, parseSlash, SLASH_COMMANDS } from "./slash-commands.js";
import type { SlashHost } from "./slash-host.js";
import { OPS_HANDLERS } from "./slash-ops.js";

const APPROVALS = ["ask", "edits", "yolo"] as const;

/** Runs one slash command line against the controller; mistakes become a notice. */
export async function runSlash(c: SlashHost, line: string): Promise<void> {
  const parsed = parseSlash(line);
  if (!parsed) return;
  const { command, near } = findCommand(parsed.name);
  if (!command) {
    c.notice(
      parsed.name
        ? `unknown command /${parsed.name}${near ? `; did you mean /${near}?` : ""} (/help lists them)`
        : "type a command after / (Tab completes it; /help lists them)",
    );
    return;
  }
  c.write([{ text: `› /${command.name}${parsed.arg ? ` ${parsed.arg}` : ""}`, tone: "user" }]);
  try {
    const handler = HANDLERS[command.name] ?? OPS_HANDLERS[command.name] ?? notYet;
    await c.working(() => handler(c, parsed.arg));
  } catch (error) {
    c.write([{ text: `✗ /${command.name}: ${(error as Error).message}`, tone: "error" }]);
  }
}

type Handler = (c: SlashHost, arg: string) => Promise<void> | void;

const notYet: Handler = (c) => c.notice("not available in this build");

/** The handlers of the session's own commands; slash-ops has the thread operations. */
export const HANDLERS: Record<string, Handler> = {
  help(c) {
    const width = Math.max(...SLASH_COMMANDS.map((s) => `/${s.name} ${s.args ?? ""}`.length));
    c.write([
      { text: "commands", tone: "accent" },
      ...SLASH_COMMANDS.map((s) => ({
        text: `${`/${s.name} ${s.args ?? ""}`.padEnd(width)}  ${s.help}`,
        indent: 2,
      })),
      { text: "keys", tone: "accent" },
      ...KEYS.map(([k, what]) => ({ text: `${k.padEnd(13)} ${what}`, indent: 2 })),
    ]);
  },
  quit(c) {
    c.quit();
  },
  async clear(c) {
    await c.reopen({}, true);
  },
  async model(c, arg) {
    if (!/^[^:\s]+:\S+$/.test(arg)) return c.notice("name it: /model provider:model");
    await c.reopen({ model: arg });
    c.write([{ text: `model ${arg} for this thread`, tone: "ok" }]);
  },
  async approval(c, arg) {
    const mode = APPROVALS.find((a) => a === arg);
    if (!mode) return c.notice(`/approval takes ${APPROVALS.join(", ")}`);
    await c.reopen({ approval: mode });
    c.write([{ text: `approval ${mode} for this thread`, tone: "ok" }]);
  },
  async cost(c) {
    c.write(await costLines(c));
  },
  async threads(c, arg) {
    const db = await openThreadsDb(c.session.workspace, false);
    let rows: ReturnType<typeof db.list>;
    try {
      rows = db.list();
    } finally {
      db.close();
    }
    if (arg) {
      const pick = /^\d+$/.test(arg)
        ? rows[Number(arg) - 1]
        : rows.find((r) => r.id === arg || r.id.startsWith(arg));
      if (!pick) return c.notice(`no thread ${arg}; /threads lists them`);
      if (pick.id === c.session.thread.id) return c.notice("that is this thread");
      await c.reopen({ threadId: pick.id });
      return;
    }
    c.write([
      { text: "threads (newest first) · /threads N switches", tone: "accent" },
      ...rows.slice(0, 20).map((r, i) => ({
        text: `${r.id === c.session.thread.id ? "*" : " "}${String(i + 1).padStart(2)} ${r.id.slice(0, 8)} ${r.updated_at.slice(0, 16).replace("T", " ")} ${r.title || "(no title)"}`,
        indent: 2,
        truncate: true,
      })),
    ]);
  },
};

async function costLines(c: SlashHost): Promise<Line[]> {
  const summary = await costReport(c.session);
  const row = (name: string, t: UsageTotals): Line => ({
    text: `${name.padEnd(24).slice(0, 24)} ${tokens(t.input).padStart(6)} in ${tokens(t.output).padStart(6)} out ${usd(t.costUsd)}`,
    indent: 2,
    truncate: true,
  });
  const t = summary.total;
  return [
    {
      text: `cost of this thread: ${usd(t.costUsd)} · ${tokens(t.input)} in / ${tokens(t.output)} out · ${t.calls} model calls`,
      tone: "accent",
    },
    { text: "by model", tone: "dim" },
    ...Object.entries(summary.byModel).map(([k, v]) => row(k, v)),
    { text: "by agent", tone: "dim" },
    ...Object.entries(summary.byAgent).map(([k, v]) => row(k, v)),
    ...(summary.unpricedModels.length
      ? [
          {
            text: `no price for ${summary.unpricedModels.join(", ")} (--prices FILE)`,
            tone: "warn" as const,
          },
        ]
      : []),
  ];
}
