// The seam's boundary: every use Delve makes of a non-public part of langchain,
// @langchain/core, @langchain/langgraph or the savers, by surface. Internal to Delve (not
// re-exported by the package root); each file names what it relies on and the versions it
// was checked against, and test/langchain-seam/ fails naming the assumption that broke.
export { cacheModelCalls, MODEL_NODE, registeredTools, TOOLS_NODE } from "./agent-graph.js";
export {
  boundModel,
  configuredModelInstance,
  llmTypeOf,
  unwrapModelOnce,
  usesOpenAiResponses,
} from "./chat-models.js";
export { adapterResultContent } from "./mcp-adapter-result.js";
export { setMessageId } from "./messages.js";
export {
  isMiddlewareNode,
  leanMiddlewareWrites,
  withoutUnchanged,
} from "./middleware-node-writes.js";
export {
  runCheckpointer,
  runConfigurable,
  runTaskId,
  type StepChannel,
  stepChannel,
} from "./pregel-config.js";
export {
  databaseHolder,
  type PostgresPool,
  type SaverDatabase,
  type SqliteHandle,
  saverDatabase,
} from "./saver-databases.js";
export { isPostgresStore, isRunBatchedStore, unbatchedStore } from "./stores.js";
