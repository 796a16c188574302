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

// Each result's id -> position index, so the next step's reduce does not walk the whole
// thread again (a step appends a few messages to hundreds). One map is shared along a chain
// of results and only grows; every hit is checked against the array it is used for, so a
// map that another branch (a replay from an older checkpoint) also extended stays correct:
// an id missing from the map is in none of the chain's arrays.
const indexes = new WeakMap<readonly unknown[], Map<string, number>>();

/**
 * The `messages` reducer for a delta channel: appends, replaces by id, removes by
 * `RemoveMessage` (all of them with `REMOVE_ALL_MESSAGES`). Batching-invariant and free of
 * clock or random reads, so replaying stored writes rebuilds exactly the run's messages.
 * A state this reducer produced is reused as it is: a step costs what it adds.
 */
export function reduceMessagesBatch(
  state: readonly unknown[],
  writes: readonly unknown[],
): BaseMessage[] {
  const base = state ?? [];
  let index = indexes.get(base);
  let result: (BaseMessage | null)[];
  if (index) result = base.slice() as BaseMessage[];
  else {
    result = base.map(toMessage);
    const fresh = new Map<string, number>();
    result.forEach((m, i) => {
      if (m?.id != null) fresh.set(m.id, i);
    });
    index = fresh;
  }
  const map = index;
  const positionOf = (id: string): number | undefined => {
    const at = map.get(id);
    if (at === undefined) return undefined;
    if (result[at]?.id === id) return at;
    const found = result.findIndex((m) => m?.id === id);
    if (found < 0) return undefined;
    map.set(id, found);
    return found;
  };
  let removed = false;
  let last = lastId(result);
  for (const write of writes) {
    for (const like of Array.isArray(write) ? write : [write]) {
      const message = toMessage(like);
      const id = message.id;
      if (RemoveMessage.isInstance(message)) {
        if (id === REMOVE_ALL_MESSAGES) {
          result.length = 0;
          removed = true;
          last = undefined;
        } else if (id != null) {
          const at = positionOf(id);
          if (at === undefined) continue;
          result[at] = null;
          removed = true;
          last = lastId(result);
        }
        continue;
      }
      if (id == null) setMessageId(message, derivedId(last, message));
      const at = removed ? result.findIndex((m) => m?.id === message.id) : positionOf(message.id!);
      if (at !== undefined && at >= 0) {
        result[at] = message;
        continue;
      }
      if (!removed) map.set(message.id!, result.length);
      result.push(message);
      last = message.id!;
    }
  }
  if (!removed) {
    indexes.set(result, map);
    return result as BaseMessage[];
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
