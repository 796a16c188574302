import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  type MessageContent,
  ToolMessage,
} from "@langchain/core/messages";

/** How a subagent starts: `"isolated"` (the task only) or `"fork"` (the parent's conversation). */
export type SubagentMode = "isolated" | "fork";

// Keeps the content blocks a provider accepts without their tool calls: text, and the
// tool_use blocks of calls that were answered.
function keptContent(content: MessageContent, answered: ReadonlySet<string>): MessageContent {
  if (typeof content === "string") return content;
  return content.filter((block: any) => {
    if (block?.type === "text") return typeof block.text === "string" && block.text !== "";
    if (block?.type === "tool_use") return answered.has(block.id);
    return false;
  }) as MessageContent;
}

/**
 * The parent's conversation as a fork starts with it: every message, except that tool
 * calls without a result (the `task` call being run and its siblings of the same turn) are
 * dropped from their AI message, and an AI message left with nothing is dropped. Providers
 * refuse a conversation with an unanswered tool call.
 */
export function forkedConversation(messages: readonly BaseMessage[]): BaseMessage[] {
  const answered = new Set(
    messages.filter((m) => ToolMessage.isInstance(m)).map((m) => (m as ToolMessage).tool_call_id),
  );
  const out: BaseMessage[] = [];
  for (const message of messages) {
    if (!AIMessage.isInstance(message) || !message.tool_calls?.length) {
      out.push(message);
      continue;
    }
    const calls = message.tool_calls.filter((c) => c.id && answered.has(c.id));
    if (calls.length === message.tool_calls.length) {
      out.push(message);
      continue;
    }
    const content = keptContent(message.content, answered);
    const empty = typeof content === "string" ? !content.trim() : content.length === 0;
    if (empty && calls.length === 0) continue;
    out.push(new AIMessage({ content, tool_calls: calls, id: message.id, name: message.name }));
  }
  return out;
}

/** The fork's input: the parent's conversation, then the task as a new user turn. */
export function forkInput(messages: readonly BaseMessage[], description: string, turnId: string) {
  return [...forkedConversation(messages), new HumanMessage({ content: description, id: turnId })];
}

/** The messages the fork itself added: those after its task turn (or not among its input). */
export function forkOwnMessages(
  result: readonly BaseMessage[],
  input: readonly BaseMessage[],
  turnId: string,
): BaseMessage[] {
  const at = result.findIndex((m) => m.id === turnId);
  if (at >= 0) return result.slice(at + 1);
  const inputIds = new Set(input.map((m) => m.id).filter(Boolean));
  return result.filter((m) => !m.id || !inputIds.has(m.id));
}
