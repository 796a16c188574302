// Relies on: inside a LangGraph task, `getConfig().configurable` carries the Pregel loop's
// private keys: `__pregel_read(channel, fresh)` reads a state channel including this step's
// pending writes, `__pregel_send([[channel, value]])` writes to one, `__pregel_checkpointer`
// is the saver the run uses, `__pregel_task_id` identifies the running task (the same id
// again on a replay of that task); a Send's task is saved with a task path that starts
// "~__pregel_push" (`taskPathStr` of ["__pregel_push", ...]). None of this is public API.
// Checked against: @langchain/langgraph 1.7.3, @langchain/core 1.4.0, langchain 1.5.14.
import { getConfig } from "@langchain/langgraph";

const READ = "__pregel_read";
const SEND = "__pregel_send";
const CHECKPOINTER = "__pregel_checkpointer";
const TASK_ID = "__pregel_task_id";

/** The running task's config keys; undefined outside a LangGraph run. */
export function runConfigurable(): Record<string, unknown> | undefined {
  try {
    return getConfig()?.configurable as Record<string, unknown> | undefined;
  } catch {
    return undefined; // Not inside a LangGraph run (a direct call in a test).
  }
}

/** Reading and writing one state channel from inside the running step. */
export interface StepChannel<T> {
  /** The channel's value including this step's own pending writes. */
  read: () => T | undefined;
  /** Sends one update to the channel, as a node's return value would. */
  write: (update: unknown) => void;
}

/**
 * The state channel `name` of the running step, or undefined outside a run. `read` throws
 * when the running graph has no such channel.
 *
 * @example
 * const files = stepChannel<Record<string, FileData>>("files")?.read();
 */
export function stepChannel<T>(name: string): StepChannel<T> | undefined {
  const configurable = runConfigurable();
  const read = configurable?.[READ];
  const send = configurable?.[SEND];
  if (typeof read !== "function" || typeof send !== "function") return undefined;
  return {
    read: () => read(name, true) as T | undefined,
    write: (update) => send([[name, update]]),
  };
}

/** The checkpointer of the running graph, if any. */
export function runCheckpointer(): object | undefined {
  const saver = runConfigurable()?.[CHECKPOINTER];
  return saver && typeof saver === "object" ? saver : undefined;
}

/** The id of the running Pregel task (stable across replays of that task), if any. */
export function runTaskId(): string | undefined {
  const id = runConfigurable()?.[TASK_ID];
  return id === undefined || id === null ? undefined : String(id);
}

/** How LangGraph writes the task path of a Send's task (its node's tasks start "~__pregel_pull"). */
const PUSH_PATH = "~__pregel_push";

/** Whether a task path given to `putWrites` is a Send's task. */
export function isSendTaskPath(taskPath: string): boolean {
  return taskPath.startsWith(PUSH_PATH);
}
