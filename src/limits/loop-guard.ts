import { canonicalJson } from "../claims/canonical-json.js";
import type { LimitHit, LoopGuardSettings } from "./types.js";

/** One tool call of a model reply. */
export interface ReplyCall {
  id?: string;
  name: string;
  args?: unknown;
}

/** What the guard decided about one reply. */
export interface GuardVerdict {
  /** Calls whose results get the nudge, by id, with the note. */
  nudges: Map<string, string>;
  /** Set when the run must stop instead of running the calls. */
  stop?: LimitHit;
}

// After the nudge, the model gets this many more turns to change course.
const GRACE = 2;

/**
 * One agent's loop and stall guard (the main agent's for a run, a subagent's for one `task`
 * call): identical calls counted by name and canonical arguments, and turns in a row that
 * made no call not made before.
 */
export class LoopGuard {
  private readonly seen = new Map<string, number>();
  private stalled = 0;
  /** Each `task` call of the last reply, by id: its place among the reply's `task` calls. */
  readonly taskIndex = new Map<string, number>();

  /** Counts a reply's calls; says which get a nudge and whether the run stops. */
  observe(
    calls: readonly ReplyCall[],
    settings: Required<LoopGuardSettings> | false,
  ): GuardVerdict {
    this.taskIndex.clear();
    let tasks = 0;
    for (const call of calls)
      if (call.name === "task" && call.id) this.taskIndex.set(call.id, tasks++);
    const verdict: GuardVerdict = { nudges: new Map() };
    if (!settings || calls.length === 0) return verdict;
    let novel = false;
    for (const call of calls) {
      const key = `${call.name}\u0000${callKey(call)}`;
      const n = (this.seen.get(key) ?? 0) + 1;
      this.seen.set(key, n);
      if (n === 1) novel = true;
      if (n >= settings.repeats + GRACE && !verdict.stop) {
        verdict.stop = {
          name: "loop",
          value: settings.repeats,
          used: n,
          reason: `The run stopped: ${call.name} was called ${n} times with the same arguments.`,
        };
      } else if (n >= settings.repeats && call.id) {
        verdict.nudges.set(
          call.id,
          `[Note: this is call ${n} of ${call.name} with these same arguments; the result will not change. Use what you have, try something different, or give your answer.]`,
        );
      }
    }
    this.stalled = novel ? 0 : this.stalled + 1;
    if (!verdict.stop && this.stalled >= settings.stallTurns + GRACE) {
      verdict.stop = {
        name: "stall",
        value: settings.stallTurns,
        used: this.stalled,
        reason: `The run stopped: ${this.stalled} turns in a row made only calls already made.`,
      };
    } else if (this.stalled >= settings.stallTurns) {
      const note = `[Note: ${this.stalled} turns in a row repeated earlier calls. Change approach or give your answer.]`;
      for (const call of calls)
        if (call.id && !verdict.nudges.has(call.id)) verdict.nudges.set(call.id, note);
    }
    return verdict;
  }
}

// Arguments nested too deep to serialise (the tool refuses them anyway) count as a new call
// each time, so a hostile reply cannot crash the guard.
let unkeyable = 0;
function callKey(call: ReplyCall): string {
  try {
    return canonicalJson(call.args ?? {});
  } catch {
    unkeyable += 1;
    return `\u0000unkeyable:${unkeyable}`;
  }
}
