import { AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";

/** A `write_file`/`edit_file` argument longer than this is shortened in old messages. */
export const MAX_OLD_ARG_CHARS = 2_000;

// Which arguments of which tools a file already holds, and how the note says so.
const FILE_ARGS: Record<string, Record<string, "saved in" | "replaced in">> = {
  write_file: { content: "saved in" },
  edit_file: { new_string: "saved in", old_string: "replaced in" },
};

/**
 * Shortens the bulky arguments of successful `write_file`/`edit_file` calls in
 * `messages[0, before)`: the file already holds the text, so `content` (and an edit's
 * strings) longer than `maxChars` becomes a note such as "(48210 chars, saved in
 * /report.md)". Calls whose result was an error keep their arguments (the file does not hold
 * them). Returns the new list and the replaced messages (same ids), or undefined when
 * nothing changed.
 *
 * @example
 * const shortened = shortenOldFileArgs(messages, cut);
 */
export function shortenOldFileArgs(
  messages: readonly BaseMessage[],
  before: number,
  maxChars = MAX_OLD_ARG_CHARS,
): { messages: BaseMessage[]; replaced: BaseMessage[] } | undefined {
  const failed = new Set<string>();
  for (const m of messages) {
    if (ToolMessage.isInstance(m) && m.status === "error") failed.add(m.tool_call_id);
  }
  const out = [...messages];
  const replaced: BaseMessage[] = [];
  for (let i = 0; i < Math.min(before, messages.length); i++) {
    const message = messages[i]!;
    if (!AIMessage.isInstance(message) || !message.tool_calls?.length) continue;
    const newArgs = new Map<string, Record<string, unknown>>();
    for (const call of message.tool_calls) {
      const spec = FILE_ARGS[call.name];
      if (!spec || !call.id || failed.has(call.id)) continue;
      const args = { ...(call.args ?? {}) } as Record<string, unknown>;
      let changed = false;
      for (const [name, verb] of Object.entries(spec)) {
        const value = args[name];
        if (typeof value !== "string" || value.length <= maxChars) continue;
        args[name] = `(${value.length} chars, ${verb} ${String(args.file_path ?? "the file")})`;
        changed = true;
      }
      if (changed) newArgs.set(call.id, args);
    }
    if (newArgs.size === 0) continue;
    out[i] = withToolCallArgs(message, newArgs);
    replaced.push(out[i]!);
  }
  return replaced.length ? { messages: out, replaced } : undefined;
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
