import { randomUUID } from "node:crypto";
import { AIMessage, type BaseMessage, RemoveMessage, ToolMessage } from "@langchain/core/messages";
import { REMOVE_ALL_MESSAGES } from "@langchain/langgraph";
import { createMiddleware } from "langchain";

/** The name the patching middleware registers under. */
export const PATCH_TOOL_CALLS_MIDDLEWARE_NAME = "PatchToolCallsMiddleware";

/** What a tool call that never finished is answered with. */
export const CANCELLED_TOOL_CALL_TEXT =
  "Error: this tool call was cancelled before it finished (the run stopped), so it has no result. Retry it if you still need the result.";

/**
 * Repairs a history the provider would refuse: each AI tool call without a result (a run
 * that crashed or was aborted between the model's reply and its tool results) gets an error
 * result saying it was cancelled and may be retried, placed right after that AI message's
 * other results; a tool message answering no earlier tool call is removed. Returns undefined
 * when the history is already sound.
 *
 * @example
 * const fixed = patchToolCalls(state.messages); // BaseMessage[] | undefined
 */
export function patchToolCalls(messages: readonly BaseMessage[]): BaseMessage[] | undefined {
  const answered = new Set<string>();
  for (const m of messages) if (ToolMessage.isInstance(m)) answered.add(m.tool_call_id);
  const out: BaseMessage[] = [];
  const called = new Set<string>();
  let pending: ToolMessage[] = [];
  let changed = false;
  const flush = () => {
    out.push(...pending);
    pending = [];
  };
  for (const message of messages) {
    if (ToolMessage.isInstance(message)) {
      if (!called.has(message.tool_call_id)) {
        changed = true; // An orphan: no earlier AI message made this call.
        continue;
      }
      out.push(message);
      continue;
    }
    flush(); // The previous AI message's results have ended: place its cancellations here.
    out.push(message);
    if (!AIMessage.isInstance(message)) continue;
    for (const call of message.tool_calls ?? []) {
      if (!call.id) continue;
      called.add(call.id);
      if (answered.has(call.id)) continue;
      changed = true;
      pending.push(
        new ToolMessage({
          id: randomUUID(),
          content: CANCELLED_TOOL_CALL_TEXT,
          tool_call_id: call.id,
          name: call.name,
          status: "error",
        }),
      );
    }
  }
  flush();
  return changed ? out : undefined;
}

/**
 * Patches dangling tool calls when a run starts (see `patchToolCalls`), rewriting the
 * thread's messages so the fix is saved. Dangling calls come from runs that ended early, so
 * once per run is enough, and it costs no graph node per step.
 *
 * @example
 * createDeepAgent({ model, checkpointer, middleware: [patchToolCallsMiddleware()] });
 */
export function patchToolCallsMiddleware() {
  return createMiddleware({
    name: PATCH_TOOL_CALLS_MIDDLEWARE_NAME,
    beforeAgent: (state) => {
      const patched = patchToolCalls(state.messages);
      if (!patched) return undefined;
      return { messages: [new RemoveMessage({ id: REMOVE_ALL_MESSAGES }), ...patched] } as any;
    },
  });
}
