// The seam's boundary: every use Delve makes of a non-public part of langchain,
// @langchain/core, @langchain/langgraph or the savers, by surface. Internal to Delve (not
// re-exported by the package root); each file names what it relies on and the versions it
// was checked against, and test/langchain-seam/ fails naming the assumption that broke.
export { cacheModelCalls, MODEL_NODE, registeredTools, TOOLS_NODE } from "./agent-graph.js";
export {
  agentGraph,
  hasToolRouters,
  reapplyOnWithConfig,
  wrapToolNodeInput,
  wrapToolRouters,
} from "./agent-graph-sends.js";
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
  isSendTaskPath,
  runCheckpointer,
  runConfigurable,
  runTaskId,
  type StepChannel,
  stepChannel,
} from "./pregel-config.js";
export {
  databaseHolder,
  ownSaverDatabase,
  type PostgresPool,
  replaceSaverSerde,
  type SaverDatabase,
  type SqliteHandle,
  saverDatabase,
  saverSerde,
  setUpSqliteSaver,
  wrapSaverPool,
} from "./saver-databases.js";
export {
  groupAncestors,
  type PgQueryPool,
  postgresAncestors,
  postgresSeeds,
  type SqliteQueryDb,
  sqliteAncestors,
} from "./saver-tables.js";
export { isPostgresStore, isRunBatchedStore, unbatchedStore } from "./stores.js";
