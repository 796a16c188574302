// What `HumanChatModel` shows the person (or program) playing the model, and how it reads
// their reply: plain JSON both ways, checked with messages that say what to fix. A leaf.
import type { BaseMessage } from "@langchain/core/messages";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";

/** One tool as the player sees it: OpenAI's function shape, or a provider tool as given. */
export interface HumanToolDefinition {
  name: string;
  description?: string;
  parameters?: unknown;
  [key: string]: unknown;
}

/** One message of the request, in the role names of chat APIs. */
export interface HumanRequestMessage {
  role: "user" | "assistant" | "tool" | "system";
  content: unknown;
  tool_calls?: Array<{ id: string; name: string; args: unknown }>;
  tool_call_id?: string;
  name?: string;
}

/** The exact request of one model call (`request-N.json`). */
export interface HumanRequest {
  /** 1-based number of this model call (a subagent's calls counted too). */
  n: number;
  /** The system prompt: the text of every system message (its text blocks joined), in order. */
  system: string;
  tools: HumanToolDefinition[];
  /** Every message but the system prompt, in order. */
  messages: HumanRequestMessage[];
  /** Where the reply goes (`reply-N.json`), in directory mode. */
  reply_to?: string;
}

/** What the player answers (`reply-N.json`): text, tool calls, or both. */
export interface HumanReply {
  text?: string;
  tool_calls?: Array<{ name: string; args: Record<string, unknown>; id?: string }>;
}

const ROLES: Record<string, HumanRequestMessage["role"]> = {
  human: "user",
  ai: "assistant",
  tool: "tool",
  system: "system",
};

/** The request the player is shown for `messages` with `tools` bound. */
export function humanRequest(n: number, messages: BaseMessage[], tools: unknown[]): HumanRequest {
  return {
    n,
    system: messages
      .filter((m) => m.getType() === "system")
      .map((m) => m.text)
      .join("\n\n"),
    tools: tools.map(definitionOf),
    messages: messages
      .filter((m) => m.getType() !== "system")
      .map((m) => {
        const calls = (m as { tool_calls?: Array<{ id?: string; name: string; args: unknown }> })
          .tool_calls;
        const toolCallId = (m as { tool_call_id?: string }).tool_call_id;
        return {
          role: ROLES[m.getType()] ?? "user",
          content: m.content,
          ...(calls?.length
            ? { tool_calls: calls.map((c) => ({ id: c.id ?? "", name: c.name, args: c.args })) }
            : {}),
          ...(toolCallId ? { tool_call_id: toolCallId } : {}),
          ...(m.getType() === "tool" && m.name ? { name: m.name } : {}),
        };
      }),
  };
}

function definitionOf(tool: unknown): HumanToolDefinition {
  const t = tool as Record<string, any>;
  if (typeof t?.name === "string" && (t.schema || t.description !== undefined)) {
    const fn = convertToOpenAITool(t as any).function;
    return { name: fn.name, description: fn.description, parameters: fn.parameters };
  }
  return { ...t, name: String(t?.name ?? t?.function?.name ?? t?.type ?? "?") };
}

/**
 * Reads a reply: `{ "text"?, "tool_calls"? }` with at least one of them, each tool call a
 * `{ name, args, id? }` naming a tool of the request. Returns the reply or what is wrong.
 */
export function readHumanReply(
  raw: unknown,
  toolNames: readonly string[],
): { reply: HumanReply } | { problem: string } {
  const shape =
    'A reply is a JSON object: {"text"?: string, "tool_calls"?: [{"name": string, "args": object, "id"?: string}]}, with text, tool calls, or both.';
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return { problem: `The reply is not a JSON object. ${shape}` };
  }
  const r = raw as Record<string, unknown>;
  const unknown = Object.keys(r).filter((k) => k !== "text" && k !== "tool_calls");
  if (unknown.length) return { problem: `Unknown key "${unknown[0]}". ${shape}` };
  if (r.text !== undefined && typeof r.text !== "string") {
    return { problem: `"text" must be a string. ${shape}` };
  }
  if (r.tool_calls !== undefined && !Array.isArray(r.tool_calls)) {
    return { problem: `"tool_calls" must be a list. ${shape}` };
  }
  const calls = (r.tool_calls ?? []) as unknown[];
  if (!r.text && calls.length === 0) {
    return { problem: `The reply is empty: give "text", "tool_calls", or both. ${shape}` };
  }
  const ids = new Set<string>();
  for (const [i, call] of calls.entries()) {
    const c = call as Record<string, unknown> | null;
    const at = `tool_calls[${i}]`;
    if (typeof c !== "object" || c === null || Array.isArray(c)) {
      return { problem: `${at} must be an object {"name", "args", "id"?}.` };
    }
    if (typeof c.name !== "string" || !c.name) return { problem: `${at}.name must be a string.` };
    if (!toolNames.includes(c.name)) {
      return {
        problem: `${at}.name "${c.name}" is not a tool of this request; the tools are: ${toolNames.join(", ") || "(none)"}.`,
      };
    }
    const args = c.args ?? {};
    if (typeof args !== "object" || args === null || Array.isArray(args)) {
      return { problem: `${at}.args must be a JSON object of the tool's arguments.` };
    }
    if (c.id !== undefined && (typeof c.id !== "string" || !c.id)) {
      return { problem: `${at}.id must be a non-empty string when given.` };
    }
    if (typeof c.id === "string") {
      if (ids.has(c.id)) return { problem: `${at}.id "${c.id}" is used twice.` };
      ids.add(c.id);
    }
  }
  return { reply: r as HumanReply };
}
