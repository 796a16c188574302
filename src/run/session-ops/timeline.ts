// A thread's line of checkpoints, from its first to its newest (a rewound thread's undone
// branch left out), with the user turns in it and the files the thread changed along it.
import { isSummaryMessage } from "../../context/summarization/summarize.js";
import { TRANSCRIPT_DIR } from "../../context/summarization/transcript-file.js";
import type { RunSession } from "../engine.js";
import type { ThreadConfig } from "../session-graph.js";
import { type FileMap, fileOrigins, filesByStep } from "../step-files.js";
import { contentText } from "../stream-events.js";
import { readHistory, type Snapshot, type StepView, stepsOf } from "../thread-history.js";

/** One user turn of a thread (a task or follow-up sent to it). */
export interface TurnPoint {
  /** 1 for the thread's first task, 2 for the first follow-up, ... */
  turn: number;
  /** The checkpoint before the turn: rewinding to this turn goes back to it. */
  checkpoint_id: string;
  /** The text the user sent. */
  task: string;
  /** When the turn started (ISO 8601, the checkpoint's time). */
  created_at: string;
}

/** One user turn and where it sits in the line. */
export interface TurnAt extends TurnPoint {
  /** Index in `line` (and `steps`, `files`) of a checkpoint holding the state before the turn. */
  before: number;
  /** The checkpoint before the turn, to fork. */
  fork: ThreadConfig;
}

/** What the session operations read of a thread. */
export interface Timeline {
  /**
   * Checkpoints of the line, oldest first: every one, or (usually) only each turn's input
   * checkpoint and the newest.
   */
  line: Snapshot[];
  /** One step per checkpoint of `line`, with the messages it added. */
  steps: StepView[];
  /** The files the thread changed, as they were after each step. */
  files: FileMap[];
  /** How each changed file stood before the thread's first change to it. */
  origins: ReturnType<typeof fileOrigins>;
  turns: TurnAt[];
}

const idOf = (s: Snapshot | undefined): string =>
  String(s?.config?.configurable?.checkpoint_id ?? "");

/**
 * Reads the thread's line and what the operations need of it. Rebuilding every checkpoint's
 * state is slow (tens of ms each, ten checkpoints a turn), so the line read is the turns'
 * input checkpoints and the newest one: each file call's message is in one of them, unless a
 * compaction removed or shortened messages in between (it writes the transcript files), in
 * which case every checkpoint is read.
 */
export async function readTimeline(session: RunSession): Promise<Timeline> {
  const line =
    (await turnPoints(session)) ??
    (await readHistory(session.agent.getStateHistory(session.config)));
  const steps = stepsOf(line, session.thread.settings.model, session.prices);
  return {
    line,
    steps,
    files: filesByStep(steps, session.workspace),
    origins: fileOrigins(steps),
    turns: turnsOf(line),
  };
}

// The input checkpoints on the newest checkpoint's line, then the newest; undefined when the
// checkpointer cannot list raw checkpoints or a compaction ran between two of them.
async function turnPoints(session: RunSession): Promise<Snapshot[] | undefined> {
  const saver = session.agent.checkpointer;
  if (!saver || typeof saver === "boolean") return undefined;
  const parents = new Map<string, string>();
  let headId: string | undefined;
  for await (const t of saver.list(session.config)) {
    const id = String(t.config?.configurable?.checkpoint_id ?? "");
    headId ??= id;
    parents.set(id, String(t.parentConfig?.configurable?.checkpoint_id ?? ""));
  }
  const onLine = new Set<string>();
  for (let id = headId; id && !onLine.has(id); id = parents.get(id)) onLine.add(id);
  const inputs: Snapshot[] = [];
  const history = session.agent.getStateHistory(session.config, { filter: { source: "input" } });
  for await (const s of history as AsyncIterable<Snapshot>) if (onLine.has(idOf(s))) inputs.push(s);
  const head: Snapshot = await session.agent.getState(session.config);
  const points = inputs.reverse();
  if (idOf(points.at(-1)) !== idOf(head)) points.push(head);
  for (let i = 1; i < points.length; i++) {
    if (compactedBetween(points[i - 1]!, points[i]!)) return undefined;
  }
  return points;
}

// A compaction writes its transcript (and kept arguments) to the thread's files, or at least
// leaves a summary message.
function compactedBetween(a: Snapshot, b: Snapshot): boolean {
  const harness = (s: Snapshot) =>
    JSON.stringify(
      Object.entries(s.values?.files ?? {})
        .filter(([file]) => file.startsWith(`${TRANSCRIPT_DIR}/`))
        .map(([file, data]: [string, any]) => [file, data?.modifiedAt ?? ""]),
    );
  if (harness(a) !== harness(b)) return true;
  const seen = new Set((a.values?.messages ?? []).map((m: any) => String(m?.id ?? "")));
  return (b.values?.messages ?? []).some(
    (m: any) => !seen.has(String(m?.id ?? "")) && isSummaryMessage(m),
  );
}

// A turn starts at an "input" checkpoint whose next checkpoint adds a message from the user
// (a resume after an approval is an input too, but adds none).
function turnsOf(line: Snapshot[]): TurnAt[] {
  const turns: TurnAt[] = [];
  line.forEach((s, i) => {
    const next = line[i + 1];
    if (s.metadata?.source !== "input" || !next) return;
    const seen = new Set((s.values?.messages ?? []).map((m: any) => String(m?.id ?? "")));
    const task = (next.values?.messages ?? []).find(
      (m: any) =>
        m?.getType?.() === "human" &&
        !seen.has(String(m?.id ?? "")) &&
        m?.additional_kwargs?.lc_source === undefined,
    );
    if (!task) return;
    // The input checkpoint holds its parent's state (the task is not applied yet); the
    // parent is the one to fork, and a first turn's input has none.
    const fork: ThreadConfig = s.parentConfig?.configurable?.checkpoint_id
      ? s.parentConfig
      : s.config;
    turns.push({
      turn: turns.length + 1,
      checkpoint_id: String(fork.configurable.checkpoint_id ?? ""),
      task: contentText(task.content),
      created_at: String(s.createdAt ?? ""),
      before: i,
      fork,
    });
  });
  return turns;
}
