import type { Chunk } from "./large-strings.js";

/** One stored write, as a history read returns it: task id, channel, type, value, order. */
export interface StoredWrite {
  taskId: string;
  channel: string;
  type: string;
  value: Uint8Array | string;
  idx: number;
  taskPath: string;
}

/** One ancestor checkpoint in a history read, nearest first. */
export interface StoredAncestor {
  checkpointId: string;
  /** The channel values the checkpoint holds, or null when it was saved without the wrapper. */
  channels: string[] | null;
  writes: StoredWrite[];
}

/**
 * Where `compactCheckpointer` keeps the long strings cut out of checkpoints: each chunk once,
 * with the threads that use it, so deleting a thread frees the chunks no other thread uses.
 */
export interface ChunkTable {
  /**
   * Saves chunks for a thread, durably, before it resolves: it is awaited before the row that
   * points at them is written. No cache may skip a save (another process may have deleted
   * the rows since).
   */
  put(thread: string, chunks: readonly Chunk[]): Promise<void> | void;
  /**
   * The JSON text of each chunk asked for that exists and, when `thread` is given, that this
   * thread saved (a skeleton resolves only chunks of its own thread). Read from the rows each
   * time: a chunk another process deleted is not answered from memory.
   */
  get(
    hashes: readonly string[],
    thread?: string,
  ): Promise<Map<string, string>> | Map<string, string>;
  /** Forgets the thread's use of its chunks and deletes those no other thread uses. */
  deleteThread(thread: string): Promise<void> | void;
  /** Records which channel values a checkpoint holds (the delta-history read needs it). */
  noteCheckpoint?(thread: string, ns: string, id: string, channels: string[]): Promise<void> | void;
  /** Records a task's path, so a history read orders a step's writes as the run did. */
  noteTaskPath?(
    thread: string,
    ns: string,
    id: string,
    taskId: string,
    path: string,
  ): Promise<void> | void;
  /** The checkpoint's ancestors with their writes to `channels`, in one query. */
  ancestors?(
    thread: string,
    ns: string,
    id: string,
    channels: readonly string[],
  ): Promise<StoredAncestor[] | undefined>;
}

/** A chunk table in memory, for `MemorySaver`: the chunks live as long as the saver. */
export class MemoryChunkTable implements ChunkTable {
  readonly #chunks = new Map<string, { text: string; threads: Set<string> }>();
  readonly #byThread = new Map<string, Set<string>>();

  put(thread: string, chunks: readonly Chunk[]): void {
    const mine = this.#byThread.get(thread) ?? new Set<string>();
    this.#byThread.set(thread, mine);
    for (const { hash, text } of chunks) {
      const entry = this.#chunks.get(hash) ?? { text, threads: new Set<string>() };
      entry.threads.add(thread);
      this.#chunks.set(hash, entry);
      mine.add(hash);
    }
  }

  get(hashes: readonly string[], thread?: string): Map<string, string> {
    const out = new Map<string, string>();
    for (const hash of hashes) {
      const entry = this.#chunks.get(hash);
      if (entry && (thread === undefined || entry.threads.has(thread))) out.set(hash, entry.text);
    }
    return out;
  }

  deleteThread(thread: string): void {
    for (const hash of this.#byThread.get(thread) ?? []) {
      const entry = this.#chunks.get(hash);
      entry?.threads.delete(thread);
      if (entry && entry.threads.size === 0) this.#chunks.delete(hash);
    }
    this.#byThread.delete(thread);
  }

  /** How many chunks and how many characters of JSON are kept (for benchmarks). */
  size(): { chunks: number; chars: number } {
    let chars = 0;
    for (const { text } of this.#chunks.values()) chars += text.length;
    return { chunks: this.#chunks.size, chars };
  }
}
