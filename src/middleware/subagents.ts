import { createAgent, createMiddleware } from "langchain";
import { createTaskTool, type TaskSubagent } from "../tools/task.js";

/** The name the subagent middleware registers under. */
export const SUBAGENT_MIDDLEWARE_NAME = "SubAgentMiddleware";

/** The always-available subagent that runs with the parent's model and tools. */
export const GENERAL_PURPOSE_SUBAGENT = "general-purpose";

/** What the general-purpose subagent is told. */
export const GENERAL_PURPOSE_PROMPT =
  "You are a subagent. Complete the task below with your tools. Your final message is the only thing the caller sees: make it a complete, concise answer with the facts, file paths and results it needs.";

const GENERAL_PURPOSE_DESCRIPTION = "any multi-step task; same tools as you, fresh context.";

export interface SubAgentMiddlewareOptions {
  /** The parent's model, run by the general-purpose subagent. */
  model: any;
  /** The parent's user tools (the general-purpose subagent gets them too). */
  tools: readonly any[];
  /** The parent's middleware without the subagent middleware (file tools, errors, user's). */
  middleware: readonly any[];
}

/**
 * The subagent middleware: owns `task`, which hands a task to the `general-purpose`
 * subagent: the parent's model and tools on a fresh conversation holding only the task,
 * starting from the parent's files, whose file changes (deletions included) come back to
 * the parent, and whose last non-empty text is the tool result.
 *
 * @example
 * // createDeepAgent adds it; the model calls:
 * // task({ description: "Summarise /kb/*.md into /kb/summary.md", subagent_type: "general-purpose" })
 */
export function subAgentMiddleware(options: SubAgentMiddlewareOptions) {
  const generalPurpose: TaskSubagent = {
    name: GENERAL_PURPOSE_SUBAGENT,
    description: GENERAL_PURPOSE_DESCRIPTION,
    runnable: createAgent({
      model: options.model,
      tools: [...options.tools],
      systemPrompt: GENERAL_PURPOSE_PROMPT,
      middleware: [...options.middleware] as any,
      name: GENERAL_PURPOSE_SUBAGENT,
    }) as any,
  };
  return createMiddleware({
    name: SUBAGENT_MIDDLEWARE_NAME,
    tools: [createTaskTool([generalPurpose])],
  });
}
