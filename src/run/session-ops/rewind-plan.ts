// What a rewind would do, worked out from the timeline and the files on disk (changes nothing).
import fs from "node:fs";
import path from "node:path";
import { createTwoFilesPatch } from "diff";
import type { RunSession } from "../engine.js";
import { contentText } from "../stream-events.js";
import { diskPlan, type RestoreTarget } from "./disk-plan.js";
import type { Timeline, TurnAt, TurnPoint } from "./timeline.js";

export type { RestoreTarget };

/** What a rewind does to one file the agent changed after the turn began. */
export interface RewindFile {
  /** Workspace-relative path. */
  path: string;
  /**
   * `restore`: written back with its content at the turn; `delete`: the agent created it
   * after the turn, so it goes.
   */
  action: "restore" | "delete";
  /**
   * Set when rewind leaves the file alone unless forced: `changed_on_disk` when its content
   * on disk is not what the agent last wrote (someone changed it since), `unknown` when its
   * content at the turn cannot be rebuilt (an overwrite of a file the thread never read).
   */
  conflict?: "changed_on_disk" | "unknown";
  /**
   * Set when the workspace snapshot did not keep the file's content at the turn (a binary
   * file, or one over the 1 MiB cap): rewind leaves it as it is.
   */
  skipped?: "too_big" | "binary";
  /**
   * The file changed on disk since the agent's last write, but not where the agent changed
   * it: rewind undoes the agent's changes and keeps the others (no conflict).
   */
  merged?: boolean;
  /** Unified diff (jsdiff) from the file on disk now to what rewind leaves. */
  diff: string;
}

/** What `rewind` would undo, for showing before it does. */
export interface RewindPlan {
  /** The turn rewound to: it and every later one are undone. */
  turn: TurnPoint;
  /** The conversation messages that leave the thread, oldest first. */
  dropped: Array<{ role: string; text: string }>;
  /** The files rewind changes (or would, if forced), sorted by path. */
  files: RewindFile[];
  /**
   * Where the files come from: `snapshots`, the workspace's trees at each run's start and end
   * (every change on disk, by any tool or subagent); `messages`, the thread's write_file and
   * edit_file calls (a thread run before snapshots).
   */
  source: "snapshots" | "messages";
  /**
   * What rewind cannot undo or know, each said in one sentence: from the messages, the
   * commands (`execute`), deletions and subagents of the undone turns; from the snapshots, a
   * missing snapshot or a workspace over the file limit.
   */
  warnings: string[];
  /** The whole plan as text: the turns undone, then the diff of every file. */
  text: string;
}

/** A plan with what carrying it out needs: each file's content after the rewind. */
export interface PlanWithTargets {
  plan: RewindPlan;
  at: TurnAt;
  /** Path to what rewind writes there (null: delete it). */
  targets: Map<string, RestoreTarget>;
  /** Paths present before the turn (their directories are never removed). */
  keep: Set<string>;
}

/** The turn, or a RangeError naming the turns the thread has. */
export function turnOf(timeline: Timeline, turn: number): TurnAt {
  const found = timeline.turns.find((t) => t.turn === turn);
  if (found) return found;
  const n = timeline.turns.length;
  throw new RangeError(
    `no turn ${turn} in this thread: it has ${n === 0 ? "none yet" : n === 1 ? "turn 1" : `turns 1-${n}`}.`,
  );
}

/**
 * The absolute path of a workspace-relative one, or undefined when it leaves the workspace or
 * passes through a symbolic link (rewind writes and deletes in the workspace's own tree only).
 */
export function insideWorkspace(workspace: string, file: string): string | undefined {
  const absolute = path.resolve(workspace, file);
  if (!absolute.startsWith(workspace + path.sep)) return undefined;
  let at = workspace;
  for (const part of path.relative(workspace, absolute).split(path.sep)) {
    at = path.join(at, part);
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(at);
    } catch {
      break; // The rest does not exist (yet).
    }
    if (stat.isSymbolicLink()) return undefined;
  }
  return absolute;
}

function readText(file: string | undefined): string | undefined {
  if (!file) return undefined;
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/** Works out the rewind to `turn`. */
export function planRewind(session: RunSession, timeline: Timeline, turn: number): PlanWithTargets {
  const at = turnOf(timeline, turn);
  const disk = diskPlan(session, timeline, at);
  const { files, targets, warnings, keep } = disk
    ? { ...disk, warnings: disk.notes, keep: new Set(Object.keys(disk.target.entries)) }
    : messagePlan(session, timeline, at);
  const kept = new Set(
    (timeline.line[at.before]?.values?.messages ?? []).map((m: any) => String(m?.id ?? "")),
  );
  const undone = (timeline.line.at(-1)?.values?.messages ?? []).filter(
    (m: any) => !kept.has(String(m?.id ?? "")),
  );
  const dropped = undone.map((m: any) => ({
    role: String(m?.getType?.() ?? "unknown"),
    text: messageText(m),
  }));
  const { before: _, fork: __, ...point } = at;
  const plan: RewindPlan = {
    turn: point,
    dropped,
    files,
    source: disk ? "snapshots" : "messages",
    warnings: disk ? warnings : [...warnings, ...warningsOf(undone)],
    text: "",
  };
  plan.text = planText(plan, timeline.turns.length);
  return { plan, at, targets, keep };
}

// The files from the thread's write_file and edit_file calls (a thread without snapshots).
function messagePlan(session: RunSession, timeline: Timeline, at: TurnAt) {
  const before = timeline.files[at.before] ?? {};
  const latest = timeline.files.at(-1) ?? {};
  const files: RewindFile[] = [];
  const targets = new Map<string, RestoreTarget>();
  for (const file of Object.keys(latest).sort()) {
    if (file in before && before[file] === latest[file]) continue;
    const absolute = insideWorkspace(session.workspace, file);
    const disk = readText(absolute);
    const created = !(file in before) && timeline.origins.get(file)?.origin === "created";
    // A file the agent created after the turn, already gone: nothing to undo.
    if (created && absolute && disk === undefined) continue;
    const target = created ? null : (before[file] ?? undefined);
    const entry: RewindFile = {
      path: file,
      action: created ? "delete" : "restore",
      diff:
        target === undefined || !absolute
          ? ""
          : createTwoFilesPatch(file, file, disk ?? "", target ?? ""),
    };
    const expected = latest[file];
    if (target === undefined || expected === null || !absolute) entry.conflict = "unknown";
    else if (disk !== expected) entry.conflict = "changed_on_disk";
    if (target !== undefined)
      targets.set(file, target === null ? null : { bytes: Buffer.from(target) });
    files.push(entry);
  }
  return { files, targets, warnings: [] as string[], keep: new Set(Object.keys(before)) };
}

// The calls of the undone turns whose effects on the workspace rewind cannot see.
const UNTRACKED: Record<string, (n: number) => string> = {
  execute: (n) =>
    `${n} command${n === 1 ? "" : "s"} ran with execute: what they changed is not undone.`,
  delete: (n) => `${n} delete call${n === 1 ? "" : "s"} removed files: they are not restored.`,
  task: (n) =>
    `${n} subagent task${n === 1 ? "" : "s"} ran: files subagents changed are not undone.`,
};

function warningsOf(messages: any[]): string[] {
  const counts = new Map<string, number>();
  for (const m of messages) {
    for (const c of m?.tool_calls ?? []) {
      if (UNTRACKED[c.name]) counts.set(c.name, (counts.get(c.name) ?? 0) + 1);
    }
  }
  return Object.keys(UNTRACKED).flatMap((name) =>
    counts.has(name) ? [UNTRACKED[name]!(counts.get(name)!)] : [],
  );
}

function messageText(m: any): string {
  const calls = (m?.tool_calls ?? []).map((c: any) => `${c.name}(${JSON.stringify(c.args)})`);
  return [contentText(m?.content), ...calls].filter(Boolean).join(" ");
}

const ACTION_TEXT = { restore: "restore", delete: "delete " } as const;
const SKIPPED_TEXT = {
  binary: "a binary file: the snapshot does not keep it, left as it is",
  too_big: "over the snapshot's 1 MiB cap: not kept, left as it is",
} as const;
const CONFLICT_TEXT = {
  changed_on_disk:
    "changed on disk since the agent's last write: left as it is (force overwrites it)",
  unknown: "its content before the turn is not known: left as it is",
} as const;

function planText(plan: RewindPlan, turns: number): string {
  const undone = turns - plan.turn.turn + 1;
  const lines = [
    `rewind to before turn ${plan.turn.turn} (${JSON.stringify(oneLine(plan.turn.task, 60))}): undoes ${undone} turn${undone === 1 ? "" : "s"}, ${plan.dropped.length} message${plan.dropped.length === 1 ? "" : "s"}`,
  ];
  for (const m of plan.dropped) lines.push(`  - ${m.role}: ${oneLine(m.text, 100)}`);
  if (plan.files.length === 0) lines.push("no file to restore");
  else lines.push("files:");
  for (const f of plan.files) {
    lines.push(
      `  ${ACTION_TEXT[f.action]} ${f.path}${f.conflict ? `  (conflict: ${CONFLICT_TEXT[f.conflict]})` : ""}${f.skipped ? `  (skipped: ${SKIPPED_TEXT[f.skipped]})` : ""}${f.merged ? "  (changed on disk since: those changes are kept)" : ""}`,
    );
  }
  for (const w of plan.warnings) lines.push(`note: ${w}`);
  const diffs = plan.files.map((f) => f.diff).filter(Boolean);
  return [...lines, ...diffs].join("\n").replace(/\n*$/, "\n");
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
