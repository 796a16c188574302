// delve/checkpoint: compact checkpoint storage. Every name exported here is public API.
export type { ChunkTable, StoredAncestor, StoredWrite } from "./chunk-table.js";
export { MemoryChunkTable } from "./chunk-table.js";
export {
  CompactCheckpointer,
  type CompactCheckpointerOptions,
  compactCheckpointer,
} from "./compact-checkpointer.js";
export { withFastReads } from "./delta-history.js";
export { FastLoadsSerde } from "./fast-loads.js";
export type { Chunk } from "./large-strings.js";
export { PostgresChunkTable } from "./postgres-chunks.js";
export { SqliteChunkTable } from "./sqlite-chunks.js";
