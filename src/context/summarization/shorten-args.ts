import { AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";

/** A `write_file`/`edit_file` argument longer than this is shortened in old messages. */
export const MAX_OLD_ARG_CHARS = 2_000;

// Which arguments of which tools a file held once (a later write may have changed it).
const FILE_ARGS: Record<string, readonly string[]> = {
  write_file: ["content"],
  edit_file: ["new_string", "old_string"],
};

/** One bulky argument of an old `write_file`/`edit_file` call, as it was sent. */
export interface LongFileArg {
  callId: string;
  tool: string;
  /** The argument's name (`content`, `new_string`, `old_string`). */
  arg: string;
  /** The file the call wrote (`file_path`), if it named one. */
  filePath: string | undefined;
  value: string;
}

/** The note that replaces one long argument. */
export type LongArgNote = (arg: LongFileArg) => string;

/**
 * Shortens the bulky arguments of successful `write_file`/`edit_file` calls in
 * `messages[0, before)`: `content` (and an edit's strings) longer than `maxChars` becomes
 * `note(arg)`, e.g. "(48210 chars; full text in /conversation_history/t.args/call_1-content.txt)".
 * The note must not claim the file still holds the text: a later write may have replaced it.
 * Calls whose result was an error keep their arguments. Returns the new list, the replaced
 * messages (same ids) and the arguments shortened, or undefined when nothing changed.
 *
 * @example
 * const shortened = shortenOldFileArgs(messages, cut, (a) => `(${a.value.length} chars, not kept)`);
 */
export function shortenOldFileArgs(
  messages: readonly BaseMessage[],
  before: number,
  note: LongArgNote,
  maxChars = MAX_OLD_ARG_CHARS,
): { messages: BaseMessage[]; replaced: BaseMessage[]; args: LongFileArg[] } | undefined {
  const failed = new Set<string>();
  for (const m of messages) {
    if (ToolMessage.isInstance(m) && m.status === "error") failed.add(m.tool_call_id);
  }
  const out = [...messages];
  const replaced: BaseMessage[] = [];
  const long: LongFileArg[] = [];
  for (let i = 0; i < Math.min(before, messages.length); i++) {
    const message = messages[i]!;
    if (!AIMessage.isInstance(message) || !message.tool_calls?.length) continue;
    const newArgs = new Map<string, Record<string, unknown>>();
    for (const call of message.tool_calls) {
      const names = FILE_ARGS[call.name];
      if (!names || !call.id || failed.has(call.id)) continue;
      const args = { ...(call.args ?? {}) } as Record<string, unknown>;
      let changed = false;
      for (const name of names) {
        const value = args[name];
        if (typeof value !== "string" || value.length <= maxChars) continue;
        const filePath = typeof args.file_path === "string" ? args.file_path : undefined;
        const found: LongFileArg = { callId: call.id, tool: call.name, arg: name, filePath, value };
        long.push(found);
        args[name] = note(found);
        changed = true;
      }
      if (changed) newArgs.set(call.id, args);
    }
    if (newArgs.size === 0) continue;
    out[i] = withToolCallArgs(message, newArgs);
    replaced.push(out[i]!);
  }
  return replaced.length ? { messages: out, replaced, args: long } : undefined;
}

/**
 * A copy of an AI message (same id) whose tool calls `newArgs` (by call id) have new
 * arguments, wherever the message holds them: `tool_calls`, provider `tool_use` content
 * blocks, and OpenAI-style `additional_kwargs.tool_calls`.
 */
export function withToolCallArgs(
  message: AIMessage,
  newArgs: ReadonlyMap<string, Record<string, unknown>>,
): AIMessage {
  const content = Array.isArray(message.content)
    ? message.content.map((block: any) =>
        (block?.type === "tool_use" || block?.type === "tool_call") && newArgs.has(block.id)
          ? {
              ...block,
              ...(block.type === "tool_use"
                ? { input: newArgs.get(block.id) }
                : { args: newArgs.get(block.id) }),
            }
          : block,
      )
    : message.content;
  const kwargs = { ...message.additional_kwargs };
  if (Array.isArray(kwargs.tool_calls)) {
    kwargs.tool_calls = kwargs.tool_calls.map((call: any) =>
      newArgs.has(call?.id)
        ? {
            ...call,
            function: { ...call.function, arguments: JSON.stringify(newArgs.get(call.id)) },
          }
        : call,
    );
  }
  return new AIMessage({
    id: message.id,
    name: message.name,
    content: content as any,
    tool_calls: (message.tool_calls ?? []).map((call) =>
      call.id && newArgs.has(call.id) ? { ...call, args: newArgs.get(call.id)! } : call,
    ),
    invalid_tool_calls: message.invalid_tool_calls,
    additional_kwargs: kwargs,
    response_metadata: message.response_metadata,
    usage_metadata: message.usage_metadata,
  });
}
