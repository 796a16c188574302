import { createHash } from "node:crypto";
import {
  AIMessage,
  type BaseMessage,
  BaseMessageChunk,
  ChatMessage,
  coerceMessageLikeToMessage,
  FunctionMessage,
  HumanMessage,
  RemoveMessage,
  SystemMessage,
  ToolMessage,
} from "@langchain/core/messages";
import { DeltaValue, REMOVE_ALL_MESSAGES } from "@langchain/langgraph";
import { z } from "zod";
import { setMessageId } from "../langchain-seam/messages.js";

const CLASS_BY_TYPE: Record<string, new (fields: any) => BaseMessage> = {
  human: HumanMessage,
  ai: AIMessage,
  system: SystemMessage,
  tool: ToolMessage,
  function: FunctionMessage,
  generic: ChatMessage,
};

function toMessage(like: unknown): BaseMessage {
  const message = coerceMessageLikeToMessage(like as any);
  if (!BaseMessageChunk.isInstance(message)) return message;
  const Class = CLASS_BY_TYPE[message.getType()];
  if (!Class) return message;
  const fields = Object.entries(message).filter(
    ([key]) => key !== "type" && key !== "tool_call_chunks" && !key.startsWith("lc_"),
  );
  return new Class(Object.fromEntries(fields));
}

/**
 * The id a message without one gets: a hash of the id of the message it follows and of its
 * own content. Replaying the same writes in any batching gives the same ids, so ids survive
 * a reload (LangGraph's own reducer draws random ones, which a delta channel would redraw).
 */
function derivedId(previous: string | undefined, message: BaseMessage): string {
  const hash = createHash("sha256");
  hash.update(previous ?? "");
  hash.update("\0");
  hash.update(message.getType());
  hash.update("\0");
  hash.update(
    typeof message.content === "string" ? message.content : JSON.stringify(message.content),
  );
  if (ToolMessage.isInstance(message)) hash.update(`\0${message.tool_call_id}`);
  if (AIMessage.isInstance(message)) hash.update(`\0${JSON.stringify(message.tool_calls ?? [])}`);
  return `msg-${hash.digest("hex").slice(0, 32)}`;
}

/**
 * The `messages` reducer for a delta channel: appends, replaces by id, removes by
 * `RemoveMessage` (all of them with `REMOVE_ALL_MESSAGES`). Batching-invariant and free of
 * clock or random reads, so replaying stored writes rebuilds exactly the run's messages.
 */
export function reduceMessagesBatch(
  state: readonly unknown[],
  writes: readonly unknown[],
): BaseMessage[] {
  const result: (BaseMessage | null)[] = (state ?? []).map(toMessage);
  const index = new Map<string, number>();
  result.forEach((m, i) => {
    if (m?.id != null) index.set(m.id, i);
  });
  let last = lastId(result);
  for (const write of writes) {
    for (const like of Array.isArray(write) ? write : [write]) {
      const message = toMessage(like);
      const id = message.id;
      if (RemoveMessage.isInstance(message)) {
        if (id === REMOVE_ALL_MESSAGES) {
          result.length = 0;
          index.clear();
          last = undefined;
        } else if (id != null && index.has(id)) {
          result[index.get(id)!] = null;
          index.delete(id);
          last = lastId(result);
        }
        continue;
      }
      if (id == null) setMessageId(message, derivedId(last, message));
      const at = index.get(message.id!);
      if (at !== undefined) {
        result[at] = message;
        continue;
      }
      index.set(message.id!, result.length);
      result.push(message);
      last = message.id!;
    }
  }
  return result.filter((m): m is BaseMessage => m !== null);
}

function lastId(messages: readonly (BaseMessage | null)[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const m = messages[i];
    if (m) return m.id ?? `#${i}`;
  }
  return undefined;
}

/**
 * The `messages` state channel `createDeepAgent` uses: a delta channel, so a checkpoint
 * stores the messages a step added, plus a full copy every `snapshotFrequency` updates.
 */
export function messagesDeltaValue(snapshotFrequency?: number) {
  return new DeltaValue(
    z.custom<BaseMessage[]>().default(() => []),
    {
      inputSchema: z.custom<any>(),
      reducer: reduceMessagesBatch as any,
      snapshotFrequency,
      jsonSchemaExtra: { langgraph_type: "messages", description: "A list of chat messages" },
    },
  );
}
