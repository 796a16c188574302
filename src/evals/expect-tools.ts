import { isDeepStrictEqual } from "node:util";
import { toolCallsOf, toolResults, totalUsage } from "./trajectory.js";
import type { Expectation, ExpectationResult, ModelTurn, TaskOutcome } from "./types.js";

/** Arguments a call must have: a partial object (deep) or a predicate over all arguments. */
export type ArgsMatcher = Record<string, unknown> | ((args: Record<string, unknown>) => boolean);

const PASS: ExpectationResult = { pass: true };
const fail = (reason: string): ExpectationResult => ({ pass: false, reason });

/** A short JSON rendering of a value for a reason text. */
export function show(value: unknown, max = 120): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

// The first argument in `expected` that `actual` does not match, as a path; undefined if all do.
function mismatch(expected: unknown, actual: unknown, path: string): string | undefined {
  if (expected && typeof expected === "object" && !Array.isArray(expected)) {
    if (!actual || typeof actual !== "object") return path || "(arguments)";
    for (const [k, v] of Object.entries(expected)) {
      const found = mismatch(v, (actual as Record<string, unknown>)[k], path ? `${path}.${k}` : k);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  return isDeepStrictEqual(expected, actual) ? undefined : path;
}

function valueAt(object: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>((o, k) => (o as any)?.[k], object);
}

/** Why the calls of `name` do not match `args`, naming the argument; undefined when one does. */
export function argsMismatch(
  name: string,
  calls: Array<{ args: Record<string, unknown> }>,
  args: ArgsMatcher,
): string | undefined {
  if (typeof args === "function") {
    if (calls.some((c) => args(c.args))) return undefined;
    return `${name} was called ${calls.length} time(s), but no call's arguments satisfy the check: got ${calls.map((c) => show(c.args)).join(", ")}`;
  }
  const misses = calls.map((c) => mismatch(args, c.args, ""));
  if (misses.some((m) => m === undefined)) return undefined;
  const path = misses[0] as string;
  const got = calls.map((c) => `${path} ${show(valueAt(c.args, path))}`).join(", ");
  return `${name} was called, but not with ${path} ${show(valueAt(args, path))}: got ${got}`;
}

const calledNames = (o: TaskOutcome) => toolCallsOf(o.trajectory).map((c) => c.name);

/**
 * The agent called `name`, and (when given) with matching arguments: a partial object,
 * compared deeply key by key, or a predicate over the whole arguments object.
 *
 * @example
 * calledTool("update_ticket", { ticket_id: "T-1003", status: "closed" })
 */
export function calledTool(name: string, args?: ArgsMatcher): Expectation {
  return {
    label: args
      ? `calledTool(${name}, ${typeof args === "function" ? "check" : show(args)})`
      : `calledTool(${name})`,
    check(outcome) {
      const calls = toolCallsOf(outcome.trajectory).filter((c) => c.name === name);
      if (calls.length === 0) {
        const names = [...new Set(calledNames(outcome))];
        return fail(
          `${name} was never called (calls: ${names.length ? names.join(", ") : "none"})`,
        );
      }
      const why = args ? argsMismatch(name, calls, args) : undefined;
      return why ? fail(why) : PASS;
    },
  };
}

/**
 * The agent never called `name`.
 *
 * @example
 * notCalledTool("update_ticket")
 */
export function notCalledTool(name: string): Expectation {
  return {
    label: `notCalledTool(${name})`,
    check(outcome) {
      const turn = outcome.trajectory.find(
        (e): e is ModelTurn => e.kind === "model" && e.toolCalls.some((c) => c.name === name),
      );
      if (!turn) return PASS;
      const call = turn.toolCalls.find((c) => c.name === name);
      return fail(`${name} was called at step ${turn.step} with ${show(call?.args)}`);
    },
  };
}

/**
 * No tool that changes data was called and the files were left as seeded. A tool mutates
 * when it declares `metadata: { mutates: true }`; without the key, MCP hints, the built-in
 * tools' effects and the name's verb (update_, delete_, send_, ...) decide. A called tool
 * that nothing classifies fails too: declare `metadata: { mutates: false }` on it.
 *
 * @example
 * readOnly()
 */
export function readOnly(): Expectation {
  return {
    label: "readOnly()",
    check(outcome) {
      for (const turn of outcome.trajectory) {
        if (turn.kind !== "model") continue;
        for (const call of turn.toolCalls) {
          if (!(call.name in outcome.mutates)) continue;
          const mutates = outcome.mutates[call.name];
          if (mutates === true) {
            return fail(
              `${call.name} changes data, but was called at step ${turn.step} with ${show(call.args)}`,
            );
          }
          if (mutates === undefined) {
            return fail(
              `${call.name} (called at step ${turn.step}) is not known to be read-only: declare metadata: { mutates: false } on it`,
            );
          }
        }
      }
      const changed = Object.keys({ ...outcome.files, ...outcome.seedFiles }).filter(
        (p) => outcome.files[p] !== outcome.seedFiles[p],
      );
      return changed.length ? fail(`files changed: ${changed.join(", ")}`) : PASS;
    },
  };
}

/**
 * The tools were called in this order (other calls may come between them).
 *
 * @example
 * calledInOrder("get_ticket", "update_ticket")
 */
export function calledInOrder(...names: string[]): Expectation {
  return {
    label: `calledInOrder(${names.join(", ")})`,
    check(outcome) {
      const calls = calledNames(outcome);
      let at = 0;
      for (const name of names) {
        const found = calls.indexOf(name, at);
        if (found < 0) {
          const prev = names[names.indexOf(name) - 1];
          return fail(
            `expected ${name}${prev ? ` after ${prev}` : ""}; the calls were: ${calls.join(", ") || "none"}`,
          );
        }
        at = found + 1;
      }
      return PASS;
    },
  };
}

/**
 * Every call of a mutating tool that ran was approved first: the run paused on an approval
 * request covering that call before its result. Needs `interruptOn` on those tools.
 *
 * @example
 * noMutationBeforeApproval()
 */
export function noMutationBeforeApproval(): Expectation {
  return {
    label: "noMutationBeforeApproval()",
    check(outcome) {
      const approved = new Set<string>();
      for (const event of outcome.trajectory) {
        if (event.kind === "approval") {
          event.callIds.forEach((id, i) => {
            if (event.decisions[i] !== "reject") approved.add(id);
          });
        }
        if (event.kind !== "tool" || outcome.mutates[event.name] !== true) continue;
        const rejected = outcome.trajectory.some(
          (e) => e.kind === "approval" && e.decisions[e.callIds.indexOf(event.callId)] === "reject",
        );
        if (!approved.has(event.callId) && !rejected) {
          return fail(
            `${event.name} ran without an approval (call ${event.callId}, args ${show(event.args)})`,
          );
        }
      }
      return PASS;
    },
  };
}

/**
 * At most `n` model calls in the run (subagents' calls included).
 *
 * @example
 * maxModelCalls(4)
 */
export function maxModelCalls(n: number): Expectation {
  return {
    label: `maxModelCalls(${n})`,
    check(outcome) {
      const count = outcome.trajectory.filter((e) => e.kind === "model").length;
      return count <= n ? PASS : fail(`budget maxModelCalls(${n}) exceeded: ${count} model calls`);
    },
  };
}

/**
 * At most `n` failed tool results (error messages and `fail()` results).
 *
 * @example
 * maxToolErrors(0)
 */
export function maxToolErrors(n: number): Expectation {
  return {
    label: `maxToolErrors(${n})`,
    check(outcome) {
      const errors = toolResults(outcome.trajectory).filter((r) => r.failed);
      if (errors.length <= n) return PASS;
      const list = errors.map((r) => `${r.name}${r.code ? `: ${r.code}` : ""}`).join(", ");
      return fail(`budget maxToolErrors(${n}) exceeded: ${errors.length} tool errors (${list})`);
    },
  };
}

/**
 * At most `n` tokens over the run's model calls (input plus output, as the provider reports
 * them; a model that reports no usage counts 0).
 *
 * @example
 * maxTokens(20_000)
 */
export function maxTokens(n: number): Expectation {
  return {
    label: `maxTokens(${n})`,
    check(outcome) {
      const { total } = totalUsage(outcome.trajectory);
      return total <= n ? PASS : fail(`budget maxTokens(${n}) exceeded: ${total} tokens`);
    },
  };
}
