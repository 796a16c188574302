import type { PendingCall, RunQuestion } from "../run/events.js";
import { type ParsedArgs, UsageError } from "./args.js";

const str = (v: unknown) => (typeof v === "string" ? v : undefined);
const workspaceOf = (args: ParsedArgs) => str(args.values.cwd) ?? process.cwd();

async function withThread<T>(
  workspace: string,
  id: string,
  fn: (s: import("../run/engine.js").RunSession) => Promise<T>,
) {
  const { openSession } = await import("../run/engine.js");
  const session = await openSession({ workspace, threadId: id, readOnly: true });
  try {
    return await fn(session);
  } finally {
    await session.close();
  }
}

/** `delve threads list|show ID|delete ID`. */
export async function threadsCommand(args: ParsedArgs): Promise<number> {
  const [action = "list", id] = args.positionals;
  const json = Boolean(args.values.json);
  const workspace = workspaceOf(args);
  const { openThreadsDb } = await import("../run/threads-db.js");
  if (action === "list") {
    const db = await openThreadsDb(workspace, false);
    const rows = db.list();
    db.close();
    if (json) {
      console.log(JSON.stringify(rows, null, 2));
      return 0;
    }
    if (!rows.length) console.error("no threads in this workspace yet: delve run TASK starts one.");
    for (const r of rows) {
      console.log(
        `${r.id}  ${r.updated_at}  ${r.settings.model}  ${r.title.replace(/\s+/g, " ").slice(0, 60)}`,
      );
    }
    return 0;
  }
  if (!id)
    throw new UsageError(
      `name the thread: delve threads ${action} ID (delve threads list shows them).`,
    );
  if (action === "delete") {
    const db = await openThreadsDb(workspace, false);
    const found = await db.delete(id).finally(() => db.close());
    if (!found) throw new UsageError(`no thread ${id} in this workspace.`);
    console.error(`deleted thread ${id}`);
    return 0;
  }
  if (action !== "show") {
    throw new UsageError(`delve threads takes list, show ID or delete ID; got "${action}".`);
  }
  return withThread(workspace, id, async (session) => {
    const [pending, questions, totals, messages] = await Promise.all([
      session.pending(),
      session.questions(),
      session.totals(),
      session.messages(),
    ]);
    const shown = { ...session.thread, ...totals, pending, questions, messages };
    if (json) {
      console.log(JSON.stringify(shown, null, 2));
      return 0;
    }
    const t = session.thread;
    console.log(`thread ${t.id}: ${t.title}`);
    console.log(
      `  model ${t.settings.model} · sandbox ${t.settings.sandbox} · approval ${t.settings.approval}${t.settings.agent ? ` · agent ${t.settings.agent}` : ""}`,
    );
    console.log(
      `  ${totals.usage.input} in / ${totals.usage.output} out tokens · ${totals.cost_usd === null ? "cost unknown" : `$${totals.cost_usd.toFixed(4)}`}`,
    );
    for (const m of messages)
      console.log(`  ${m.role}: ${m.text.replace(/\s+/g, " ").slice(0, 200)}`);
    for (const p of pending)
      console.log(`  waiting: ${p.call_id} ${p.tool} ${JSON.stringify(p.args)}`);
    for (const q of questions) console.log(`  asking: ${q.call_id} ${questionLine(q)}`);
    return 0;
  });
}

const questionLine = (q: RunQuestion) =>
  `${JSON.stringify(q.question)}${q.choices?.length ? ` [${q.choices.join(" | ")}]` : ""}`;

/** One line of `delve pending --json`: an approval (`PendingCall`) or a question. */
type PendingEntry = { thread_id: string } & (
  | ({ kind: "approval" } & PendingCall)
  | ({ kind: "question" } & RunQuestion)
);

/** `delve pending`: every approval and question waiting in the workspace. */
export async function pendingCommand(args: ParsedArgs): Promise<number> {
  const workspace = workspaceOf(args);
  const { openThreadsDb } = await import("../run/threads-db.js");
  const db = await openThreadsDb(workspace, false);
  const rows = db.list();
  db.close();
  const all: PendingEntry[] = [];
  for (const row of rows) {
    const [calls, questions] = await withThread(workspace, row.id, (s) =>
      Promise.all([s.pending(), s.questions()]),
    );
    for (const c of calls) all.push({ thread_id: row.id, kind: "approval", ...c });
    for (const q of questions) all.push({ thread_id: row.id, kind: "question", ...q });
  }
  if (args.values.json) {
    console.log(JSON.stringify(all, null, 2));
    return 0;
  }
  if (!all.length) console.error("no approval or question is waiting.");
  for (const p of all) {
    const what =
      p.kind === "approval" ? `${p.tool} ${JSON.stringify(p.args)}` : `ask_user ${questionLine(p)}`;
    console.log(`${p.thread_id}  ${p.call_id}  ${what}`);
  }
  return 0;
}
