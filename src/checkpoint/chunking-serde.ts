import type { AsyncLocalStorage } from "node:async_hooks";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import type { ChunkTable } from "./chunk-table.js";
import { joinLargeStrings, skeletonRefs, splitLargeStrings } from "./large-strings.js";
import { loadPlainJson } from "./plain-json.js";

type SerializerProtocol = BaseCheckpointSaver["serde"];

/** What a save in progress tells the serializer: the thread, and a value to keep whole. */
export interface SaveContext {
  thread: string;
  /** The checkpoint metadata: savers query it as JSON, so it is never cut. */
  keepWhole?: unknown;
  /** Set when a value of this save was cut (its skeleton is not JSON SQLite can read). */
  cut?: boolean;
}

/**
 * The serializer `compactCheckpointer` gives the saver it wraps: values the saver stores
 * during a save are cut into a skeleton and long strings, the strings saved first (so a
 * checkpoint never points at a chunk not yet stored). Values serialised outside a save (a
 * saver re-reading its metadata) are left whole.
 */
export class ChunkingSerde implements SerializerProtocol {
  // A saver that loads every value as "json" whatever its type (MemorySaver) keeps the very
  // arrays it was given: there a skeleton is one of the arrays made here, not a shape.
  readonly #made: WeakSet<object> | undefined;

  constructor(
    readonly inner: SerializerProtocol,
    readonly chunks: ChunkTable,
    readonly minChunk: number,
    readonly saving: AsyncLocalStorage<SaveContext>,
    /** False for a saver that loses the stored types but keeps the arrays (in memory). */
    typesKept = true,
  ) {
    this.#made = typesKept ? undefined : new WeakSet();
  }

  #refs(type: string, data: Uint8Array | string) {
    if (this.#made && !(typeof data === "object" && data !== null && this.#made.has(data))) {
      return undefined;
    }
    return skeletonRefs(type, data);
  }

  async dumpsTyped(value: any): Promise<[string, Uint8Array]> {
    const out = await this.inner.dumpsTyped(value);
    const save = this.saving.getStore();
    if (!save || out[0] !== "json" || save.keepWhole === value) return out;
    const split = splitLargeStrings(out[1], this.minChunk, save.thread);
    if (!split) return out;
    // Awaited: the chunks are committed before the row that points at them is written.
    await this.chunks.put(save.thread, split.chunks);
    save.cut = true;
    this.#made?.add(split.skeleton);
    return ["json", split.skeleton];
  }

  async loadsTyped(type: string, data: Uint8Array | string): Promise<any> {
    const refs = this.#refs(type, data);
    if (!refs) return this.inner.loadsTyped(type, data);
    const texts = await this.chunks.get(refs.hashes, refs.thread);
    return this.inner.loadsTyped(type, joinLargeStrings(data, refs, texts));
  }

  /** Loads many stored values with one chunk lookup per thread for all of them. */
  async loadMany(items: readonly { type: string; value: Uint8Array | string }[]): Promise<any[]> {
    const refs = items.map((i) => this.#refs(i.type, i.value));
    const byThread = new Map<string | undefined, string[]>();
    for (const r of refs)
      if (r) byThread.set(r.thread, [...(byThread.get(r.thread) ?? []), ...r.hashes]);
    const texts = new Map<string | undefined, Map<string, string>>();
    for (const [thread, hashes] of byThread)
      texts.set(thread, await this.chunks.get(hashes, thread));
    return Promise.all(
      items.map((item, n) => {
        const r = refs[n];
        const data = r ? joinLargeStrings(item.value, r, texts.get(r.thread)!) : item.value;
        const plain = loadPlainJson(item.type, data);
        return plain !== undefined ? plain : this.inner.loadsTyped(item.type, data);
      }),
    );
  }
}
