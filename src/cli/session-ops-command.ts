// The headless forms of the interactive terminal's slash commands: `delve threads
// turns|rewind|diff|cost|compact|tools ID` and `delve context`. Each opens the thread, runs one
// session operation (src/run/session-ops) and prints it.
import type { ContextPart, ContextReport, RunSession } from "../run/index.js";
import { type ParsedArgs, UsageError } from "./args.js";

/** The `delve threads` actions this module runs. */
export const SESSION_OP_ACTIONS = ["turns", "rewind", "diff", "cost", "compact", "tools"] as const;

type Action = (typeof SESSION_OP_ACTIONS)[number];

const workspaceOf = (args: ParsedArgs) =>
  typeof args.values.cwd === "string" ? args.values.cwd : process.cwd();

async function withSession<T>(
  args: ParsedArgs,
  thread: { threadId?: string; continueLatest?: boolean },
  readOnly: boolean,
  fn: (s: RunSession) => Promise<T>,
): Promise<T> {
  const { openSession } = await import("../run/engine.js");
  const session = await openSession({ workspace: workspaceOf(args), ...thread, readOnly });
  try {
    return await fn(session);
  } finally {
    await session.close();
  }
}

// Flags that belong to one action only: a mistake, not silently ignored, elsewhere.
function checkFlags(action: string, args: ParsedArgs): void {
  const only: Record<string, string> = { to: "rewind", force: "rewind", "dry-run": "rewind" };
  for (const [flag, owner] of Object.entries(only)) {
    if (args.values[flag] !== undefined && action !== owner) {
      throw new UsageError(`--${flag} goes with delve threads ${owner}, not ${action}.`);
    }
  }
}

/** Runs `delve threads ACTION ID` for one of `SESSION_OP_ACTIONS`. */
export async function sessionOpCommand(
  action: Action,
  id: string,
  args: ParsedArgs,
): Promise<number> {
  checkFlags(action, args);
  const json = Boolean(args.values.json);
  const ops = await import("../run/session-ops/index.js");
  const print = (value: unknown) => console.log(JSON.stringify(value, null, 2));
  if (action === "rewind" && args.values.to === undefined) {
    throw new UsageError(
      "name the turn to go back to: delve threads rewind ID --to N (delve threads turns ID lists them).",
    );
  }
  // The tools report measures MCP tools too, so its servers start; the rest only read.
  return withSession(args, { threadId: id }, action !== "tools", async (session) => {
    if (action === "turns") {
      const turns = await ops.listTurns(session);
      if (json) print(turns);
      else if (!turns.length) console.error("this thread has no turn yet.");
      for (const t of turns)
        if (!json) console.log(`${t.turn}  ${t.created_at}  ${oneLine(t.task)}`);
      return 0;
    }
    if (action === "rewind") {
      const turn = Number(args.values.to);
      if (args.values["dry-run"]) {
        const plan = await wrapRange(ops.previewRewind(session, turn));
        if (json) print(plan);
        else process.stdout.write(plan.text);
        return 0;
      }
      const done = await wrapRange(
        ops.rewind(session, turn, { force: Boolean(args.values.force) }),
      );
      if (json) print(done);
      else {
        process.stdout.write(done.plan.text);
        console.error(rewindLine(session.thread.id, turn, done));
      }
      return 0;
    }
    if (action === "diff") {
      const diff = await ops.threadDiff(session);
      if (json) print(diff.files);
      else if (!diff.files.length) console.error("this thread changed no file.");
      else process.stdout.write(diff.text);
      return 0;
    }
    if (action === "cost") {
      const cost = await ops.costReport(session);
      if (json) print(cost);
      else printCost(cost);
      return 0;
    }
    if (action === "compact") {
      const result = await ops.compactNow(session);
      if (json) print(result);
      else if (!result.compacted)
        console.error("nothing old enough to summarize: the thread is unchanged.");
      else {
        console.log(
          `compacted: ${result.before.messages} messages (~${result.before.tokens} tokens) -> ${result.after.messages} (~${result.after.tokens}); ${result.summarized} summarized${result.transcript ? `, transcript in ${result.transcript}` : ""}`,
        );
      }
      return 0;
    }
    const tools = await ops.toolsReport(session);
    if (json) print(tools);
    else {
      for (const t of tools.visible)
        console.log(
          `  ${t.name.padEnd(24)} ${String(t.chars).padStart(6)} chars ~${t.tokens} tokens`,
        );
      console.log(
        `visible ${tools.visible.length}: ${tools.totalChars} chars, ~${tools.totalTokens} tokens`,
      );
      for (const t of tools.hidden) console.log(`hidden: ${t.name}: ${t.reason}`);
      for (const t of tools.deferred)
        console.log(`deferred: ${t.name} (~${t.tokens} tokens once loaded)`);
    }
    return 0;
  });
}

// A turn the thread does not have is the user's mistake (exit 2), said as rewind says it.
async function wrapRange<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof RangeError) throw new UsageError(error.message);
    throw error;
  }
}

function rewindLine(
  id: string,
  turn: number,
  done: {
    restored: string[];
    deleted: string[];
    conflicts: Array<{ path: string; conflict?: string }>;
    skipped: Array<{ path: string }>;
  },
): string {
  const parts = [`rewound thread ${id} to before turn ${turn}`];
  if (done.restored.length) parts.push(`restored ${done.restored.join(", ")}`);
  if (done.deleted.length) parts.push(`deleted ${done.deleted.join(", ")}`);
  if (done.conflicts.length) {
    const force = done.conflicts.some((c) => c.conflict === "changed_on_disk")
      ? " (--force overwrites a file changed on disk)"
      : "";
    parts.push(`left as they are: ${done.conflicts.map((c) => c.path).join(", ")}${force}`);
  }
  if (done.skipped.length) {
    parts.push(
      `not kept by the snapshots (binary or over 1 MiB), left as they are: ${done.skipped.map((c) => c.path).join(", ")}`,
    );
  }
  return `${parts.join("; ")}. Continue it with delve run -c TASK or delve --thread ${id}.`;
}

function printCost(
  cost: Awaited<ReturnType<typeof import("../run/session-ops/index.js").costReport>>,
) {
  const usd = (v: number | undefined) => (v === undefined ? "cost unknown" : `$${v.toFixed(4)}`);
  const row = (name: string, t: (typeof cost)["total"]) =>
    `  ${name.padEnd(32)} ${String(t.calls).padStart(4)} calls ${String(t.input).padStart(9)} in ${String(t.output).padStart(8)} out  ${usd(t.costUsd)}`;
  console.log("by model:");
  for (const [name, t] of Object.entries(cost.byModel)) console.log(row(name, t));
  console.log("by agent:");
  for (const [name, t] of Object.entries(cost.byAgent)) console.log(row(name, t));
  console.log(row("total", cost.total));
  if (cost.unpricedModels.length)
    console.log(
      `no price for ${cost.unpricedModels.join(", ")}: --prices FILE or "prices" in the config gives one.`,
    );
}

/** `delve context [--thread ID]`: what fills the window of the thread's next model call. */
export async function contextCommand(args: ParsedArgs): Promise<number> {
  const id = typeof args.values.thread === "string" ? args.values.thread : undefined;
  const { contextReport } = await import("../run/session-ops/index.js");
  return withSession(
    args,
    id ? { threadId: id } : { continueLatest: true },
    false,
    async (session) => {
      const report = await contextReport(session);
      if (args.values.json)
        console.log(JSON.stringify({ thread_id: session.thread.id, ...report }, null, 2));
      else console.log(contextText(session.thread.id, report));
      return 0;
    },
  );
}

const BAR = 30;

// A bar of `share` (0-1) of BAR characters; anything above zero shows at least one.
function bar(share: number): string {
  const n = Math.min(BAR, Math.round(share * BAR));
  return "#".repeat(n || (share > 0 ? 1 : 0)).padEnd(BAR, ".");
}

/**
 * The context report as lines, as `/context` shows it: the window's use as a bar, then each
 * part with a bar of its share of what is used.
 */
export function contextText(threadId: string, report: ContextReport): string {
  const used = report.total.tokens;
  const line = (label: string, p: { chars: number; tokens: number }, indent = "") =>
    `${indent}${label.padEnd(24 - indent.length)} ${bar(used ? p.tokens / used : 0)} ${String(p.tokens).padStart(7)} tokens ${String(p.chars).padStart(8)} chars`;
  const sum = (parts: ContextPart[]) => ({
    chars: parts.reduce((s, p) => s + p.chars, 0),
    tokens: parts.reduce((s, p) => s + p.tokens, 0),
  });
  const percent = ((used / report.window) * 100).toFixed(1);
  const assumed = report.windowAssumed ? " (assumed: the model's profile gives none)" : "";
  return [
    `thread ${threadId}`,
    `${"window".padEnd(24)} ${bar(used / report.window)} ${used} of ${report.window} tokens (${percent}%)${assumed}`,
    line("system prompt", report.systemPrompt),
    line(`tools (${report.tools.length})`, sum(report.tools)),
    ...report.tools.map((t) => line(t.name, t, "  ")),
    line(`messages (${report.messages.count})`, report.messages),
    line(`files (${report.files.length})`, sum(report.files)),
    ...report.files.map((f) => line(f.name, f, "  ")),
  ].join("\n");
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 100 ? `${flat.slice(0, 99)}…` : flat;
}
