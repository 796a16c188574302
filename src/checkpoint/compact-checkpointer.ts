import { AsyncLocalStorage } from "node:async_hooks";
import type { RunnableConfig } from "@langchain/core/runnables";
import {
  BaseCheckpointSaver,
  type Checkpoint,
  type CheckpointMetadata,
  type CheckpointTuple,
  MemorySaver,
} from "@langchain/langgraph";
import { ConfigurationError } from "../errors/configuration-error.js";
import { isSendTaskPath } from "../langchain-seam/pregel-config.js";
import { ownSaverDatabase, replaceSaverSerde } from "../langchain-seam/saver-databases.js";
import { type ChunkTable, MemoryChunkTable } from "./chunk-table.js";
import { ChunkingSerde, type SaveContext } from "./chunking-serde.js";
import { postgresSeedReader, readDeltaHistory, withFastDecoding } from "./delta-history.js";
import { MIN_CHUNK_CHARS } from "./large-strings.js";
import { PostgresChunkTable } from "./postgres-chunks.js";
import { SqliteChunkTable } from "./sqlite-chunks.js";

/** Options of {@link compactCheckpointer}. */
export interface CompactCheckpointerOptions {
  /**
   * Where the long strings go. Default: beside the saver's own tables (the same SQLite file
   * or PostgreSQL schema), or in memory for `MemorySaver`. Required for other savers.
   */
  chunks?: ChunkTable;
  /** Strings at least this many characters long (as JSON) are stored once. Default 1024. */
  minChunkChars?: number;
}

type ChannelVersions = Checkpoint["channel_versions"];
type CheckpointListOptions = Parameters<BaseCheckpointSaver["list"]>[1];
type PendingWrite = Parameters<BaseCheckpointSaver["putWrites"]>[1][number];

/**
 * A checkpointer that stores each long string (a file's content, a tool result) once,
 * whichever checkpoints, writes and threads hold it: the saver keeps a skeleton of each value
 * and the strings live in a content-addressed table beside it. Reads, lists, forks and
 * interrupts work as with the saver alone. Build it with {@link compactCheckpointer}.
 */
export class CompactCheckpointer extends BaseCheckpointSaver {
  readonly #saving = new AsyncLocalStorage<SaveContext>();
  readonly #serde: ChunkingSerde;

  constructor(
    /** The saver that holds the checkpoints (its serializer is replaced by a chunking one). */
    readonly saver: BaseCheckpointSaver,
    /** Where the long strings are kept. */
    readonly chunks: ChunkTable,
    minChunkChars = MIN_CHUNK_CHARS,
  ) {
    super();
    withFastDecoding(saver);
    // MemorySaver loads every stored value as "json", whatever type it was saved with.
    const typesKept = !isMemorySaver(saver);
    this.#serde = replaceSaverSerde(
      saver,
      (own) => new ChunkingSerde(own, chunks, minChunkChars, this.#saving, typesKept),
    ) as ChunkingSerde;
    this.serde = this.#serde;
  }

  override getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    return this.saver.getTuple(config);
  }

  override list(
    config: RunnableConfig,
    options?: CheckpointListOptions,
  ): AsyncGenerator<CheckpointTuple> {
    return this.saver.list(config, options);
  }

  override async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    const { thread, ns } = where(config);
    const save: SaveContext = { thread, keepWhole: metadata };
    const saved = await this.#saving.run(save, () =>
      this.saver.put(config, checkpoint, metadata, newVersions),
    );
    // Only a cut checkpoint needs its channels noted (SQLite reads a whole one itself). Lost
    // to a kill here, the history read falls back to the saver's own walk: slower, the same.
    if (save.cut) {
      await this.chunks.noteCheckpoint?.(
        thread,
        ns,
        checkpoint.id,
        Object.keys(checkpoint.channel_values ?? {}),
      );
    }
    return saved;
  }

  override async putWrites(
    config: RunnableConfig,
    writes: PendingWrite[],
    taskId: string,
    taskPath?: string,
  ): Promise<void> {
    const { thread, ns } = where(config);
    const id = config.configurable?.checkpoint_id;
    // Before the writes: a history read that sees them must also see how to order them.
    // Only Sends' paths are kept: a write without one sorts first, where a node's writes
    // (pull paths) go among a step's Sends anyway; an agent step runs one node.
    if (taskPath && isSendTaskPath(taskPath) && id) {
      await this.chunks.noteTaskPath?.(thread, ns, id, taskId, taskPath);
    }
    await this.#saving.run({ thread }, () =>
      this.saver.putWrites(config, writes, taskId, taskPath),
    );
  }

  /** Deletes the thread's checkpoints, then the strings no other thread uses. */
  override async deleteThread(threadId: string): Promise<void> {
    await this.saver.deleteThread(threadId);
    await this.chunks.deleteThread(String(threadId));
  }

  /**
   * PostgresSaver keys channel values by (channel, version) and keeps the first value saved
   * under a key, so a fork (which reuses the next version number of the branch it leaves)
   * would read the old branch's values. New threads there get versions with a random suffix
   * (as LangGraph's Python savers do), written short: see {@link nextBranchVersion}.
   */
  override getNextVersion(current: any): any {
    // A thread saved before the wrapper keeps whole-number versions (they must keep ordering).
    if (!(this.chunks instanceof PostgresChunkTable) || typeof current === "number") {
      return this.saver.getNextVersion(current);
    }
    return nextBranchVersion(current);
  }

  /**
   * The writes to replay for delta channels, read in one query for SQLite and PostgreSQL
   * (the saver alone reads each ancestor checkpoint in turn).
   */
  override async getDeltaChannelHistory(options: {
    config: RunnableConfig;
    channels: string[];
  }): Promise<any> {
    const fallback = (o: typeof options) => this.saver.getDeltaChannelHistory(o);
    const ancestors = this.chunks.ancestors?.bind(this.chunks);
    if (!ancestors) return fallback(options);
    // On PostgreSQL each seed is read alone (getTuple would read every channel).
    const seeds =
      this.chunks instanceof PostgresChunkTable
        ? postgresSeedReader(this.saver, (t, v) => this.#serde.loadsTyped(t, v))
        : undefined;
    return readDeltaHistory(
      this.saver,
      fallback,
      ancestors,
      (w) => this.#serde.loadMany(w),
      options,
      seeds,
    );
  }
}

/**
 * The version after `current`, unique to its branch: a letter giving how many base-36 digits
 * follow ("a" one, "b" two...), the count in base 36, a dot and 6 random base-36 characters,
 * e.g. "b1z.k3j2a9" (10 characters where the first form, 32 padded digits, a dot and 16
 * random digits, took 49). Both orders LangGraph uses (`>` and `localeCompare`) sort them by
 * count, and after every version of the first form (a letter sorts after a digit), so a
 * thread saved with that form stays in order when it continues with this one.
 */
export function nextBranchVersion(current: unknown): string {
  const text = current === undefined || current === null ? "" : String(current);
  const short = /^[a-z]([0-9a-z]+)\./.exec(text);
  const n = short ? Number.parseInt(short[1]!, 36) : Number.parseInt(text, 10);
  const digits = ((Number.isFinite(n) ? n : 0) + 1).toString(36);
  const suffix = Math.floor(Math.random() * 36 ** 6)
    .toString(36)
    .padStart(6, "0");
  return `${String.fromCharCode(96 + digits.length)}${digits}.${suffix}`;
}

function where(config: RunnableConfig): { thread: string; ns: string } {
  const thread = config.configurable?.thread_id;
  return {
    thread: thread === undefined || thread === null ? "" : String(thread),
    ns: String(config.configurable?.checkpoint_ns ?? ""),
  };
}

/**
 * Wraps a LangGraph checkpointer (`MemorySaver`, `SqliteSaver`, `PostgresSaver`) so that each
 * long string is stored once instead of once per checkpoint, with a fast delta-history read,
 * and `deleteThread` that frees the thread's strings. Use the returned saver in place of the
 * one passed in (whose serializer it takes over).
 *
 * @example
 * const checkpointer = compactCheckpointer(SqliteSaver.fromConnString("threads.db"));
 * const agent = createDeepAgent({ model, checkpointer });
 */
export function compactCheckpointer(
  saver: BaseCheckpointSaver,
  options: CompactCheckpointerOptions = {},
): CompactCheckpointer {
  if (saver instanceof CompactCheckpointer) return saver;
  const minChunk = options.minChunkChars ?? MIN_CHUNK_CHARS;
  if (!Number.isInteger(minChunk) || minChunk < 64) {
    throw new ConfigurationError("INVALID_OPTION", "minChunkChars must be a whole number >= 64.");
  }
  return new CompactCheckpointer(saver, options.chunks ?? defaultChunks(saver), minChunk);
}

const isMemorySaver = (saver: any): boolean =>
  saver instanceof MemorySaver || saver?.constructor?.name === "MemorySaver";

function defaultChunks(saver: any): ChunkTable {
  if (isMemorySaver(saver)) {
    return new MemoryChunkTable();
  }
  const database = ownSaverDatabase(saver);
  if (database?.kind === "sqlite") return new SqliteChunkTable(database.db);
  if (database?.kind === "postgres") return new PostgresChunkTable(database.pool, database.schema);
  throw new ConfigurationError(
    "UNKNOWN_SAVER",
    "compactCheckpointer knows MemorySaver, SqliteSaver and PostgresSaver; for another saver pass options.chunks (a ChunkTable that survives as long as the saver's data).",
  );
}
