// delve/checkpoint: compact checkpoint storage. Every name exported here is public API.
export type { ChunkStore, StoredAncestor, StoredWrite } from "./chunk-store.js";
export { MemoryChunkStore } from "./chunk-store.js";
export {
  CompactCheckpointer,
  type CompactCheckpointerOptions,
  compactCheckpointer,
} from "./compact-checkpointer.js";
export { withFastReads } from "./delta-history.js";
export { FastLoadsSerde } from "./fast-loads.js";
export type { Chunk } from "./large-strings.js";
export { PostgresChunkStore } from "./postgres-chunks.js";
export { SqliteChunkStore } from "./sqlite-chunks.js";
