import { ReducedValue, StateSchema } from "@langchain/langgraph";
import { schemaMetaRegistry } from "@langchain/langgraph/zod";
import { filesDeltaValue } from "../backends/file-map/files-state.js";
import { messagesDeltaValue } from "./messages-delta.js";

/**
 * Delta channels save a full copy of a channel every this many updates, by default. A copy
 * costs the channel's whole size, so the bytes they add grow as steps^2 / (2 x this); a cold
 * read replays at most this many writes. (LangGraph's own default is 100.)
 */
export const DEFAULT_SNAPSHOT_EVERY = 500;

/**
 * The state schema a Delve agent hands to `createAgent`: `messages` and `files` as delta
 * channels (a checkpoint stores what a step changed), then the user's own fields, which win
 * on a name clash. `createAgent` applies this schema before the middleware's, so these
 * channels replace the middleware's `files` and LangChain's `messages`. A zod object is
 * taken field by field, reducers (`withLangGraph`) included. `middlewareFields` (channels of
 * middleware declared on the agent, see `hoistHookStates`) come last and never replace one.
 */
export function compactStateSchema(
  user: unknown,
  snapshotEvery = DEFAULT_SNAPSHOT_EVERY,
  middlewareFields: Record<string, unknown> = {},
): StateSchema<any> {
  const fields: Record<string, any> = {
    messages: messagesDeltaValue(snapshotEvery),
    files: filesDeltaValue(snapshotEvery),
  };
  if (StateSchema.isInstance(user)) Object.assign(fields, (user as any).fields);
  else if (user && typeof user === "object" && typeof (user as any).shape === "object") {
    for (const [key, schema] of Object.entries((user as any).shape as Record<string, any>)) {
      const reducer = schemaMetaRegistry.get(schema)?.reducer as any;
      fields[key] = reducer
        ? new ReducedValue(schema, {
            ...(reducer.schema ? { inputSchema: reducer.schema } : {}),
            reducer: reducer.fn,
          } as any)
        : schema;
    }
  }
  for (const [key, field] of Object.entries(middlewareFields))
    if (!(key in fields)) fields[key] = field;
  return new StateSchema(fields);
}
