import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { Command, getCurrentTaskInput, isGraphBubbleUp } from "@langchain/langgraph";
import { TASK_TOOL_NAME } from "../agent/builtin-names.js";
import type { FileData } from "../backends/protocol/protocol.js";
import { LOADED_TOOLS_KEY } from "../deferral/names.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { DelveError } from "../errors/delve-error.js";
import { unwrapDelveError } from "../errors/unwrap.js";
import { defineTool } from "../filesystem/tools/define-tool.js";
import { errorMessage, toolCallIdOf } from "../filesystem/tools/tool-output.js";
import type { PermissionRule } from "../permissions/index.js";
import { subagentFileCalls, type TaskArtifact } from "./file-calls.js";
import { forkInput, forkOwnMessages, type SubagentMode } from "./fork.js";
import { admitFileChanges, refusedNote } from "./merge-back.js";

export { TASK_TOOL_NAME };

/** A subagent `task` can hand work to: its name, when to use it, and its compiled graph. */
export interface TaskSubagent {
  name: string;
  description: string;
  runnable: { invoke(input: any, config?: any): Promise<any> };
  /**
   * True when the subagent ran under the parent's own permission rules (and so asked a human
   * for what they put in `interrupt` mode): its changes to such paths are kept. Otherwise
   * (compiled subagents, subagents with their own rules) they are refused at merge-back.
   */
  sharesParentRules?: boolean;
  /** `"fork"`: it starts with the parent's conversation, the task as the new user turn. */
  mode?: SubagentMode;
}

/** The `task` description: what it does, when (not) to use it, and the subagents on offer. */
export function taskDescription(subagents: readonly TaskSubagent[]): string {
  const fork = (s: TaskSubagent) =>
    s.mode === "fork" ? " (fork: starts with this conversation)" : "";
  const list = subagents.map((s) => `- ${s.name}${fork(s)}: ${s.description}`).join("\n");
  const starts = subagents.some((s) => s.mode === "fork")
    ? "It starts with your files and, unless marked fork, none of your conversation"
    : "It starts with your files but none of your conversation";
  return `Delegate a self-contained task to a subagent. ${starts}, works on its own, and returns one final answer that only you see (tell the user what matters): write the task fully. Use for multi-step work whose details you do not need; several task calls in one message run in parallel. Not for a single quick step.\nSubagents:\n${list}`;
}

/** The last non-empty text of a run, or its structured response as JSON. */
export function finalAnswerOf(result: { messages?: BaseMessage[]; structuredResponse?: unknown }) {
  if (result.structuredResponse !== undefined) return JSON.stringify(result.structuredResponse);
  const messages = result.messages ?? [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (!AIMessage.isInstance(message)) continue;
    const text = message.text.trim();
    if (text) return text;
  }
  return "(The subagent finished without a final answer.)";
}

/** Files the subagent changed, added (FileData) or removed (null), relative to `before`. */
export function filesChangedBy(
  before: Record<string, FileData>,
  after: Record<string, FileData> | undefined,
): Record<string, FileData | null> {
  const changes: Record<string, FileData | null> = {};
  if (!after) return changes;
  for (const [path, data] of Object.entries(after)) {
    const old = before[path];
    if (!old || old.content !== data.content || old.encoding !== data.encoding) {
      changes[path] = data;
    }
  }
  for (const path of Object.keys(before)) if (!(path in after)) changes[path] = null;
  return changes;
}

interface ParentState {
  files?: Record<string, FileData>;
  messages?: BaseMessage[];
  [LOADED_TOOLS_KEY]?: string[];
}

function parentState(config: unknown): ParentState {
  const fromConfig = (config as { state?: ParentState })?.state;
  if (fromConfig?.files) return fromConfig;
  try {
    return (getCurrentTaskInput() as ParentState) ?? {};
  } catch {
    return {};
  }
}

/** One file a `task` call changed, for detecting parallel subagents writing the same file. */
export interface TaskFileWrite {
  path: string;
  subagent: string;
  callId: string;
  /** The file's `modifiedAt` when the subagent started ("" when it did not exist). */
  base: string;
}

/** The state key where `task` logs the files each call changed. */
export const TASK_WRITES_KEY = "delveTaskWrites";

/**
 * Builds the `task` tool over a fixed set of subagents. With `permissions` (the parent's
 * rules), a subagent's file changes merge back only where the parent may write; the rest
 * are dropped and named in the result (see `admitFileChanges`).
 */
export function createTaskTool(
  subagents: readonly TaskSubagent[],
  description?: string,
  permissions: readonly PermissionRule[] = [],
) {
  const byName = new Map(subagents.map((s) => [s.name, s]));
  return defineTool<{ description: string; subagent_type: string }>({
    name: TASK_TOOL_NAME,
    description: description ?? taskDescription(subagents),
    schema: {
      type: "object",
      properties: {
        description: {
          type: "string",
          minLength: 1,
          description: "The whole task: goal, inputs, expected result.",
        },
        subagent_type: { type: "string", enum: subagents.map((s) => s.name) },
      },
      required: ["description", "subagent_type"],
    },
    run: async ({ description, subagent_type }, config) => {
      const subagent = byName.get(subagent_type);
      if (!subagent) {
        return errorMessage(
          config,
          TASK_TOOL_NAME,
          `unknown subagent "${subagent_type}". Available: ${[...byName.keys()].join(", ")}.`,
        );
      }
      const parent = parentState(config);
      const before = parent.files ?? {};
      // A subagent starts with the tools its parent loaded; what it loads stays its own.
      const loaded = parent[LOADED_TOOLS_KEY];
      const callId = toolCallIdOf(config);
      const turnId = `fork-${callId}`;
      const messages =
        subagent.mode === "fork"
          ? forkInput(parent.messages ?? [], description, turnId)
          : [new HumanMessage(description)];
      let result: any;
      try {
        result = await subagent.runnable.invoke(
          {
            messages,
            files: before,
            ...(loaded?.length ? { [LOADED_TOOLS_KEY]: loaded } : {}),
          },
          config as any,
        );
      } catch (error) {
        if (isGraphBubbleUp(error)) throw error;
        // A developer error (a missing provider package, a bad option) is not the model's to fix.
        const delve = unwrapDelveError(error);
        if (DelveError.isInstance(delve)) throw delve;
        const reason = error instanceof Error ? error.message : String(error);
        return errorMessage(
          config,
          TASK_TOOL_NAME,
          `subagent "${subagent_type}" failed: ${reason}. Its file changes were not applied; retry or do the work another way.`,
        );
      }
      if (!Array.isArray(result?.messages) && result?.structuredResponse === undefined) {
        throw new ConfigurationError(
          "SUBAGENT_NO_MESSAGES",
          `subagent "${subagent_type}" returned no "messages": a compiled subagent's graph must keep a messages state key, whose last AI message is its answer.`,
          { subagent: subagent_type },
        );
      }
      const { admitted: files, refused } = admitFileChanges(
        permissions,
        filesChangedBy(before, result?.files),
        subagent.sharesParentRules === true,
      );
      // A fork's answer is among what it added, never a message of the parent's.
      const own =
        subagent.mode === "fork" && Array.isArray(result?.messages)
          ? { ...result, messages: forkOwnMessages(result.messages, messages, turnId) }
          : (result ?? {});
      const fileCalls = Array.isArray(own.messages) ? subagentFileCalls(own.messages) : [];
      const message = new ToolMessage({
        content: finalAnswerOf(own) + refusedNote(refused),
        tool_call_id: callId,
        name: TASK_TOOL_NAME,
        ...(fileCalls.length ? { artifact: { file_calls: fileCalls } satisfies TaskArtifact } : {}),
      });
      if (Object.keys(files).length === 0) return message;
      const writes: TaskFileWrite[] = Object.keys(files).map((path) => ({
        path,
        subagent: subagent_type,
        callId,
        base: before[path]?.modifiedAt ?? "",
      }));
      return new Command({ update: { files, messages: [message], [TASK_WRITES_KEY]: writes } });
    },
  });
}
