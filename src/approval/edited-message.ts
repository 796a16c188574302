import { AIMessage } from "@langchain/core/messages";

/**
 * The AI message with the reviewer's arguments, under the SAME id so the messages reducer
 * replaces it in place. Provider copies of the calls are patched too, so the next model
 * request shows what actually ran.
 */
export function withEditedArgs(
  ai: AIMessage,
  edits: ReadonlyMap<string, Record<string, unknown>>,
): AIMessage {
  const tool_calls = (ai.tool_calls ?? []).map((c) =>
    edits.has(c.id ?? "") ? { ...c, args: edits.get(c.id ?? "")! } : c,
  );
  const content = Array.isArray(ai.content)
    ? ai.content.map((block: any) =>
        block?.type === "tool_use" && edits.has(block.id)
          ? { ...block, input: edits.get(block.id) }
          : block,
      )
    : ai.content;
  const kwargs = { ...ai.additional_kwargs } as Record<string, any>;
  if (Array.isArray(kwargs.tool_calls)) {
    kwargs.tool_calls = kwargs.tool_calls.map((c: any) =>
      edits.has(c?.id)
        ? { ...c, function: { ...c.function, arguments: JSON.stringify(edits.get(c.id)) } }
        : c,
    );
  }
  return new AIMessage({
    id: ai.id,
    name: ai.name,
    content: content as any,
    tool_calls,
    invalid_tool_calls: ai.invalid_tool_calls,
    additional_kwargs: kwargs,
    response_metadata: ai.response_metadata,
    usage_metadata: ai.usage_metadata,
  });
}
