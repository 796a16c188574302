import { type BaseMessage, ToolMessage } from "@langchain/core/messages";
import { deepCompareStrict } from "@langchain/core/utils/json_schema";
import { isCommand } from "@langchain/langgraph";

// What the model reads about a reviewer's decision: without it, a model whose call was cut
// (a refund of 120 edited to 40) reports what it asked for, not what ran.

/** The result of a rejected call: always the frame, then the reviewer's note if any. */
export function rejectionText(message: string | undefined): string {
  const frame = "Rejected by a reviewer; the call did not run.";
  return message?.trim() ? `${frame} Reviewer's note: ${message.trim()}` : frame;
}

const MAX_VALUE = 80;

function shown(value: unknown): string {
  if (value === undefined) return "(unset)";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 3)}...` : text;
}

/**
 * "A reviewer changed this call before it ran: amount 120 -> 40." listing each top-level
 * argument the edit changed, added or removed; undefined when the edit changed nothing.
 */
export function editNotice(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): string | undefined {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const changes = keys
    .filter((k) => !deepCompareStrict(before[k] as any, after[k] as any))
    .map((k) => `${k} ${shown(before[k])} -> ${shown(after[k])}`);
  if (changes.length === 0) return undefined;
  return `A reviewer changed this call before it ran: ${changes.join(", ")}.`;
}

/**
 * The tool's result with the notice first: in its ToolMessage, or in the ToolMessage for
 * `callId` that a returned Command's update carries.
 */
export function withNotice<T>(result: T, callId: string, notice: string | undefined): T {
  if (!notice) return result;
  const update = (result as any)?.update;
  const candidates: unknown[] =
    isCommand(result) && Array.isArray(update?.messages) ? update.messages : [result];
  const message = candidates.find(
    (m) => ToolMessage.isInstance(m as BaseMessage) && (m as ToolMessage).tool_call_id === callId,
  ) as ToolMessage | undefined;
  if (!message) return result;
  const content = message.content;
  message.content =
    typeof content === "string"
      ? `${notice}\n\n${content}`
      : ([{ type: "text", text: notice }, ...content] as ToolMessage["content"]);
  return result;
}
