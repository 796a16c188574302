import { ConfigurationError } from "../errors/configuration-error.js";
import type { TaskSet } from "./types.js";

const TASK_SET = Symbol.for("delve.taskSet");

/**
 * Declares a fixed set of agent tasks: `agent` builds the agent under test from a chat
 * model (the runner passes one that records or replays), and each task has an `id`, the
 * user `input`, optional seed `files` and `context`, and the expectations that must hold.
 * Throws `ConfigurationError` for a missing agent factory, an empty set, a duplicate id or
 * a task without expectations.
 *
 * @example
 * export default defineTaskSet({
 *   name: "ticket desk",
 *   agent: (model) => createDeepAgent({ model, tools }),
 *   tasks: [{ id: "look-up", input: "What is the status of T-1001?", expect: [readOnly()] }],
 * });
 */
export function defineTaskSet<T extends TaskSet>(taskSet: T): T {
  const bad = (message: string, details: Record<string, unknown> = {}) =>
    new ConfigurationError("INVALID_TASK_SET", message, details);
  if (!taskSet || typeof taskSet.name !== "string" || taskSet.name.trim() === "") {
    throw bad("defineTaskSet needs a name.");
  }
  if (typeof taskSet.agent !== "function") {
    throw bad(`Task set ${taskSet.name}: agent must be a function (model) => agent.`);
  }
  if (!Array.isArray(taskSet.tasks) || taskSet.tasks.length === 0) {
    throw bad(`Task set ${taskSet.name} has no tasks.`);
  }
  const ids = new Set<string>();
  for (const task of taskSet.tasks) {
    if (typeof task?.id !== "string" || !/^[\w.-]+$/.test(task.id)) {
      throw bad(`Task ids are letters, digits, "-", "_" or "." (got ${JSON.stringify(task?.id)}).`);
    }
    if (ids.has(task.id)) throw bad(`Two tasks have the id ${task.id}.`, { id: task.id });
    ids.add(task.id);
    if (task.input === undefined || task.input === "") {
      throw bad(`Task ${task.id} has no input.`, { id: task.id });
    }
    const expectations = Array.isArray(task.expect) ? task.expect : [];
    if (expectations.length === 0) {
      throw bad(`Task ${task.id} has no expectations: add calledTool(...), readOnly(), ...`, {
        id: task.id,
      });
    }
    for (const e of expectations) {
      if (typeof e?.check !== "function" || typeof e.label !== "string") {
        throw bad(`Task ${task.id}: each expect entry must come from calledTool, readOnly, ...`, {
          id: task.id,
        });
      }
    }
  }
  Object.defineProperty(taskSet, TASK_SET, { value: true });
  return taskSet;
}

/** True for a value made by `defineTaskSet` (from any copy of Delve). */
export function isTaskSet(value: unknown): value is TaskSet {
  return typeof value === "object" && value !== null && (value as any)[TASK_SET] === true;
}
