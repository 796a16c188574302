import type { AsyncLocalStorage } from "node:async_hooks";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import type { ChunkStore } from "./chunk-store.js";
import { chunkHashesOf, joinLargeStrings, splitLargeStrings } from "./large-strings.js";
import { loadPlainJson } from "./plain-json.js";

type SerializerProtocol = BaseCheckpointSaver["serde"];

/** What a save in progress tells the serializer: the thread, and a value to keep whole. */
export interface SaveContext {
  thread: string;
  /** The checkpoint metadata: savers query it as JSON, so it is never cut. */
  keepWhole?: unknown;
}

/**
 * The serializer `compactCheckpointer` gives the saver it wraps: values the saver stores
 * during a save are cut into a skeleton and long strings, the strings saved first (so a
 * checkpoint never points at a chunk not yet stored). Values serialised outside a save (a
 * saver re-reading its metadata) are left whole.
 */
export class ChunkingSerde implements SerializerProtocol {
  constructor(
    readonly inner: SerializerProtocol,
    readonly store: ChunkStore,
    readonly minChunk: number,
    readonly saving: AsyncLocalStorage<SaveContext>,
  ) {}

  async dumpsTyped(value: any): Promise<[string, Uint8Array]> {
    const out = await this.inner.dumpsTyped(value);
    const save = this.saving.getStore();
    if (!save || out[0] !== "json" || save.keepWhole === value) return out;
    const split = splitLargeStrings(out[1], this.minChunk);
    if (!split) return out;
    await this.store.put(save.thread, split.chunks);
    return ["json", split.skeleton];
  }

  async loadsTyped(type: string, data: Uint8Array | string): Promise<any> {
    const hashes = data == null ? undefined : chunkHashesOf(data);
    if (!hashes) return this.inner.loadsTyped(type, data);
    return this.inner.loadsTyped(type, joinLargeStrings(data, await this.store.get(hashes)));
  }

  /** Loads many stored values with one chunk lookup for all of them. */
  async loadMany(items: readonly { type: string; value: Uint8Array | string }[]): Promise<any[]> {
    const hashes = items.flatMap((i) => (i.value == null ? [] : (chunkHashesOf(i.value) ?? [])));
    const texts = hashes.length ? await this.store.get(hashes) : new Map<string, string>();
    return Promise.all(
      items.map((i) => {
        const chunked = i.value != null && chunkHashesOf(i.value);
        const data = chunked ? joinLargeStrings(i.value, texts) : i.value;
        const plain = loadPlainJson(i.type, data);
        return plain !== undefined ? plain : this.inner.loadsTyped(i.type, data);
      }),
    );
  }
}
