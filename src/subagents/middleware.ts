import { GENERAL_PURPOSE_SUBAGENT, SUBAGENT_MIDDLEWARE_NAME } from "../agent/builtin-names.js";
import type { PermissionRule } from "../permissions/index.js";

export { GENERAL_PURPOSE_SUBAGENT, SUBAGENT_MIDDLEWARE_NAME };

import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { ReducedValue, StateSchema } from "@langchain/langgraph";
import { createMiddleware } from "langchain";
import { z } from "zod";
import { hookState, withAgentLevelState } from "../agent/hook-state.js";
import { createTaskTool, TASK_WRITES_KEY, type TaskFileWrite, type TaskSubagent } from "./task.js";

/** What the general-purpose subagent is told by default. */
export const GENERAL_PURPOSE_PROMPT =
  "You are a subagent. Complete the task below with your tools. Your final message is the only thing the caller sees: make it a complete, concise answer with the facts, file paths and results it needs.";

/** How the general-purpose subagent is described to the model by default. */
export const GENERAL_PURPOSE_DESCRIPTION = "any multi-step task; same tools as you, fresh context.";

const writeSchema = z.object({
  path: z.string(),
  subagent: z.string(),
  callId: z.string(),
  base: z.string(),
});

/** Finds files that two `task` calls changed from the same starting revision. */
export function findConflicts(writes: readonly TaskFileWrite[]): string[] {
  const byFile = new Map<string, TaskFileWrite[]>();
  for (const w of writes) {
    const key = `${w.path}\0${w.base}`;
    byFile.set(key, [...(byFile.get(key) ?? []), w]);
  }
  const notices: string[] = [];
  for (const group of byFile.values()) {
    const calls = [...new Map(group.map((w) => [w.callId, w])).values()];
    if (calls.length < 2) continue;
    const who = calls.map((w) => `"${w.subagent}" (call ${w.callId})`).join(" and ");
    const kept = calls.at(-1)!;
    notices.push(
      `${calls[0]!.path} was changed in parallel by subagents ${who}; the version from call ${kept.callId} was kept and the other changes to this file are lost. Re-read it and reconcile.`,
    );
  }
  return notices;
}

// Conflicts among the task calls of the last model turn: reported once, on the next call.
function conflictsOfLastTurn(messages: BaseMessage[], writes: TaskFileWrite[] | undefined) {
  if (!writes?.length) return [];
  const lastAi = [...messages].reverse().find((m) => AIMessage.isInstance(m)) as
    | AIMessage
    | undefined;
  const ids = new Set((lastAi?.tool_calls ?? []).map((c) => c.id));
  return ids.size ? findConflicts(writes.filter((w) => ids.has(w.callId))) : [];
}

/**
 * The subagent middleware: owns `task`, which hands a task to a subagent that starts from
 * the parent's files (not its messages), whose file changes, deletions included, come back
 * to the parent, and whose structured response or last non-empty text is the result. When
 * parallel `task` calls change one file, the later write wins and the parent's next model
 * call carries a notice naming the file and both subagents. `createDeepAgent` builds it from
 * its `subagents` option (use that); one passed in `middleware` replaces the default whole,
 * general-purpose subagent included, and takes compiled subagents only.
 *
 * @example
 * const reviewer = { name: "reviewer", description: "Reviews a brief.", runnable: reviewerAgent };
 * createDeepAgent({ model, middleware: [subAgentMiddleware({ subagents: [reviewer] })] });
 */
export function subAgentMiddleware(options: {
  subagents: readonly TaskSubagent[];
  taskDescription?: string;
  /** The parent's permission rules: subagents' file changes merge back only where they allow. */
  permissions?: readonly PermissionRule[];
}) {
  return withAgentLevelState(
    createMiddleware({
      name: SUBAGENT_MIDDLEWARE_NAME,
      stateSchema: new StateSchema({
        [TASK_WRITES_KEY]: new ReducedValue(
          z.array(writeSchema).default(() => []),
          {
            inputSchema: z.array(writeSchema).optional(),
            reducer: (current: TaskFileWrite[], next?: TaskFileWrite[]) => [
              ...(current ?? []),
              ...(next ?? []),
            ],
          },
        ),
      }),
      tools: [createTaskTool(options.subagents, options.taskDescription, options.permissions)],
      // No beforeModel hook: a graph node per step costs more than this check (see bench/).
      wrapModelCall: (request, handler) => {
        const notices = conflictsOfLastTurn(
          request.messages,
          hookState(request)[TASK_WRITES_KEY] as TaskFileWrite[] | undefined,
        );
        if (notices.length === 0) return handler(request);
        const text = `File conflicts from parallel subagents:\n- ${notices.join("\n- ")}`;
        return handler({ ...request, systemMessage: request.systemMessage.concat(`\n\n${text}`) });
      },
    }),
  );
}
