import type { BaseMessage } from "@langchain/core/messages";
import { ConfigurationError } from "../errors/configuration-error.js";
import {
  type ArgsMatcher,
  answerMatches,
  calledInOrder,
  calledTool,
  type Expectation,
  noFalseSuccess,
  notCalledTool,
  readOnly,
  type TaskOutcome,
  type TextPattern,
  type TrajectoryEvent,
  toolMutates,
  wroteFile,
} from "../evals/index.js";
import { trajectoryFromMessages } from "../evals/trajectory.js";

/**
 * What the matchers accept: an `agent.invoke` result (`{ messages, files }`), its messages,
 * a trajectory, or one run of a `runTaskSet` report.
 */
export type AgentRunLike =
  | { messages: BaseMessage[]; files?: Record<string, unknown> }
  | BaseMessage[]
  | { trajectory: TrajectoryEvent[]; answer?: string };

/** The tools the run could call, so `toBeReadOnly` reads their `metadata.mutates`. */
export interface ReadOnlyOptions {
  tools?: Array<{ name: string; metadata?: unknown }>;
  /** Files the run started with (path -> text): changes to them count as writes. */
  seedFiles?: Record<string, string>;
}

/** The matchers `registerDelveMatchers` adds to vitest's `expect`. */
export interface DelveMatchers<R = unknown> {
  /** The run called `name` (with arguments matching `args`: partial object or predicate). */
  toHaveCalledTool(name: string, args?: ArgsMatcher): R;
  /** The run never called `name`. */
  toNotHaveCalledTool(name: string): R;
  /** The run called these tools in this order (other calls may come between). */
  toHaveCalledToolsInOrder(...names: string[]): R;
  /** The run's files hold `path`, written (not just seeded), matching `content` when given. */
  toHaveWrittenFile(path: string, content?: TextPattern): R;
  /** No mutating tool was called and no file changed (see `readOnly()` in `delve/evals`). */
  toBeReadOnly(options?: ReadOnlyOptions): R;
  /** After a failed tool call, the final answer reports the failure. */
  toHaveNoFalseSuccess(options?: { tools?: string[] }): R;
  /** The final answer matches a RegExp or contains a string (case-insensitive). */
  toHaveAnswerMatching(pattern: TextPattern): R;
}

declare module "vitest" {
  interface Matchers<T = any> extends DelveMatchers<T> {}
}

function fileText(data: unknown): string {
  if (typeof data === "string") return data;
  const content = (data as { content?: unknown })?.content;
  return Array.isArray(content) ? content.join("\n") : String(content ?? "");
}

/** Builds what the evals' expectations check from any of the accepted shapes. */
export function outcomeOf(actual: unknown, options: ReadOnlyOptions = {}): TaskOutcome {
  let trajectory: TrajectoryEvent[];
  let files: Record<string, string> = {};
  let answer: string | undefined;
  if (Array.isArray(actual)) trajectory = trajectoryFromMessages(actual as BaseMessage[]);
  else if (actual && Array.isArray((actual as any).trajectory)) {
    trajectory = (actual as any).trajectory;
    answer = (actual as any).answer;
  } else if (actual && Array.isArray((actual as any).messages)) {
    trajectory = trajectoryFromMessages((actual as any).messages);
    for (const [path, data] of Object.entries((actual as any).files ?? {})) {
      if (data !== null && data !== undefined) files[path] = fileText(data);
    }
  } else {
    throw new ConfigurationError(
      "NOT_A_RUN",
      "Delve's matchers take an agent.invoke result, its messages, or a trajectory.",
    );
  }
  const mutates: Record<string, boolean | undefined> = {};
  for (const event of trajectory) {
    if (event.kind === "model") for (const c of event.toolCalls) mutates[c.name] = toolMutates(c);
  }
  for (const tool of options.tools ?? []) mutates[tool.name] = toolMutates(tool);
  const last = trajectory.filter((e) => e.kind === "model").at(-1);
  files = { ...(options.seedFiles ?? {}), ...files };
  return {
    input: "",
    trajectory,
    answer: answer ?? (last?.kind === "model" ? last.text : ""),
    files,
    seedFiles: options.seedFiles ?? {},
    mutates,
  };
}

type MatcherResult = { pass: boolean; message: () => string };

// Synchronous, so a matcher needs no await; every expectation used here checks synchronously.
function verdict(
  actual: unknown,
  expectation: Expectation,
  options?: ReadOnlyOptions,
): MatcherResult {
  const result = expectation.check(outcomeOf(actual, options), {});
  if (result instanceof Promise) throw new Error(`${expectation.label} needs the eval runner.`);
  return {
    pass: result.pass,
    message: () =>
      result.pass
        ? `expected the run not to satisfy ${expectation.label}, but it did`
        : (result.reason ?? expectation.label),
  };
}

/** The matcher functions, for `expect.extend`. */
export const delveMatchers = {
  toHaveCalledTool: (actual: unknown, name: string, args?: ArgsMatcher) =>
    verdict(actual, calledTool(name, args)),
  toNotHaveCalledTool: (actual: unknown, name: string) => verdict(actual, notCalledTool(name)),
  toHaveCalledToolsInOrder: (actual: unknown, ...names: string[]) =>
    verdict(actual, calledInOrder(...names)),
  toHaveWrittenFile: (actual: unknown, path: string, content?: TextPattern) =>
    verdict(actual, wroteFile(path, content)),
  toBeReadOnly: (actual: unknown, options: ReadOnlyOptions = {}) =>
    verdict(actual, readOnly(), options),
  toHaveNoFalseSuccess: (actual: unknown, options: { tools?: string[] } = {}) =>
    verdict(actual, noFalseSuccess(options)),
  toHaveAnswerMatching: (actual: unknown, pattern: TextPattern) =>
    verdict(actual, answerMatches(pattern)),
};

/**
 * Adds Delve's agent matchers to vitest's `expect`: pass your `expect`, or call it without
 * one to have vitest imported now (Delve never imports vitest until you ask). Await it once,
 * at the top of a test file or in a setup file.
 *
 * @example
 * import { expect } from "vitest";
 * import { registerDelveMatchers } from "delve/testing";
 * registerDelveMatchers(expect);
 * expect(await agent.invoke(input)).toHaveCalledTool("get_ticket", { ticket_id: "T-1003" });
 */
export async function registerDelveMatchers(expect?: {
  extend(matchers: object): void;
}): Promise<void> {
  let target = expect;
  if (!target) {
    try {
      target = (await import("vitest")).expect;
    } catch (error) {
      throw new ConfigurationError(
        "VITEST_MISSING",
        "registerDelveMatchers needs vitest: npm install -D vitest, or pass your expect.",
        { cause: String(error) },
      );
    }
  }
  target.extend(delveMatchers);
}
