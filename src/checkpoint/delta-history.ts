import type { RunnableConfig } from "@langchain/core/runnables";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import type { StoredAncestor, StoredWrite } from "./chunk-store.js";
import { postgresAncestors, sqliteAncestors } from "./history-queries.js";
import { loadPlainJson } from "./plain-json.js";

/** What `getDeltaChannelHistory` returns: per channel, the writes to replay and the seed. */
export type DeltaHistory = Record<string, { writes: [string, string, unknown][]; seed?: unknown }>;

/** Reads a checkpoint's ancestors (nearest first) with their writes to some channels. */
export type AncestorReader = (
  thread: string,
  ns: string,
  id: string,
  channels: readonly string[],
) => Promise<StoredAncestor[] | undefined>;

/**
 * A delta-history read from one ancestors query: walks nearest first, collecting each
 * channel's writes until an ancestor holds the channel's value (its seed), which is then read
 * with one `getTuple`. Falls back to the saver's own walk when the query cannot answer.
 */
export async function readDeltaHistory(
  saver: BaseCheckpointSaver,
  fallback: (options: { config: RunnableConfig; channels: string[] }) => Promise<any>,
  ancestorsOf: AncestorReader,
  loadMany: (items: readonly StoredWrite[]) => Promise<unknown[]>,
  options: { config: RunnableConfig; channels: string[] },
): Promise<DeltaHistory> {
  const { config, channels } = options;
  if (channels.length === 0) return {};
  const thread = config.configurable?.thread_id;
  if (thread === undefined || thread === null || thread === "") return fallback(options);
  const ns = String(config.configurable?.checkpoint_ns ?? "");
  const id = config.configurable?.checkpoint_id ?? (await saver.getTuple(config))?.checkpoint.id;
  if (!id) return fallback(options);
  const ancestors = await ancestorsOf(String(thread), ns, id, channels);
  if (!ancestors || ancestors.some((a) => a.channels === null)) return fallback(options);
  const remaining = new Set(channels);
  const blocks = new Map<string, StoredWrite[][]>(channels.map((c) => [c, []]));
  const seedAt = new Map<string, string>();
  for (const ancestor of ancestors) {
    if (remaining.size === 0) break;
    for (const ch of remaining) {
      blocks.get(ch)!.push(stepOrder(ancestor.writes.filter((w) => w.channel === ch)));
    }
    for (const ch of [...remaining]) {
      if (ancestor.channels!.includes(ch)) {
        seedAt.set(ch, ancestor.checkpointId);
        remaining.delete(ch);
      }
    }
  }
  const seeds = new Map<string, Record<string, unknown>>();
  for (const seedId of new Set(seedAt.values())) {
    const tuple = await saver.getTuple({
      configurable: { thread_id: thread, checkpoint_ns: ns, checkpoint_id: seedId },
    });
    seeds.set(seedId, tuple?.checkpoint.channel_values ?? {});
  }
  const result: DeltaHistory = {};
  for (const ch of channels) {
    const ordered = blocks.get(ch)!.reverse().flat();
    const values = await loadMany(ordered);
    const entry: DeltaHistory[string] = {
      writes: ordered.map((w, i) => [w.taskId, w.channel, values[i]]),
    };
    const seed = seedAt.has(ch) ? seeds.get(seedAt.get(ch)!) : undefined;
    if (seed && Object.hasOwn(seed, ch)) entry.seed = seed[ch];
    result[ch] = entry;
  }
  return result;
}

// A step's writes in the order the run applied them (task path, task id, index; strings by
// code point) when task paths are known; else in the order the saver returns them.
function stepOrder(writes: StoredWrite[]): StoredWrite[] {
  if (!writes.some((w) => w.taskPath)) return writes;
  const byCodePoint = (a: string, b: string) => {
    const x = [...a];
    const y = [...b];
    for (let i = 0; i < Math.min(x.length, y.length); i += 1) {
      if (x[i] !== y[i]) return x[i]!.codePointAt(0)! < y[i]!.codePointAt(0)! ? -1 : 1;
    }
    return x.length - y.length;
  };
  return writes.sort(
    (a, b) =>
      byCodePoint(a.taskPath, b.taskPath) || byCodePoint(a.taskId, b.taskId) || a.idx - b.idx,
  );
}

const FAST = Symbol.for("delve.fast_delta_history");

/**
 * Gives a `SqliteSaver` or `PostgresSaver` a one-query `getDeltaChannelHistory` (the savers
 * alone read each ancestor checkpoint in turn, which makes a cold read of a long thread slow).
 * Other savers are returned as they are. The saver is changed in place and returned.
 */
export function withFastDeltaHistory<T>(saver: T): T {
  const s = saver as any;
  if (!s || s[FAST] || typeof s.getDeltaChannelHistory !== "function") return saver;
  let reader: AncestorReader | undefined;
  if (s.db && typeof s.db.prepare === "function") {
    reader = async (...args) => {
      s.setup?.();
      return sqliteAncestors(s.db, ...args, false);
    };
  } else if (s.pool && typeof s.pool.query === "function") {
    const schema = s.options?.schema ?? "public";
    reader = (...args) => postgresAncestors(s.pool, schema, ...args, false);
  }
  if (!reader) return saver;
  const fallback = s.getDeltaChannelHistory.bind(s);
  const loadMany = (items: readonly StoredWrite[]) =>
    Promise.all(
      items.map((w) => loadPlainJson(w.type, w.value) ?? s.serde.loadsTyped(w.type, w.value)),
    );
  s.getDeltaChannelHistory = (options: any) =>
    readDeltaHistory(s, fallback, reader!, loadMany, options);
  s[FAST] = true;
  return saver;
}
