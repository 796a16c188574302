// A thread's line of checkpoints, from its first to its newest (`readHistory`: a rewound
// thread's undone branch left out), with the user turns in it and the files at each step.
import type { RunSession } from "../engine.js";
import { type FileMap, fileOrigins, filesByStep } from "../step-files.js";
import { contentText } from "../stream-events.js";
import { readHistory, type Snapshot, type StepView, stepsOf } from "../thread-history.js";
import type { TurnPoint } from "./turns.js";

/** One user turn and where it sits in the line. */
export interface TurnAt extends TurnPoint {
  /** Index in `line` of the checkpoint before the turn. */
  before: number;
}

/** What the session operations read of a thread. */
export interface Timeline {
  /** The checkpoints from the first to the newest, parents before children. */
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

/** Reads the thread's line of checkpoints and what the operations need of it. */
export async function readTimeline(session: RunSession): Promise<Timeline> {
  const line = await readHistory(session.agent.getStateHistory(session.config));
  const steps = stepsOf(line, session.thread.settings.model, session.prices);
  return {
    line,
    steps,
    files: filesByStep(steps, session.workspace),
    origins: fileOrigins(steps),
    turns: turnsOf(line),
  };
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
    const before = i === 0 ? 0 : i - 1;
    turns.push({
      turn: turns.length + 1,
      checkpoint_id: idOf(line[before]),
      task: contentText(task.content),
      created_at: String(s.createdAt ?? ""),
      before,
    });
  });
  return turns;
}
