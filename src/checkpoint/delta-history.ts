import type { RunnableConfig } from "@langchain/core/runnables";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import {
  ownSaverDatabase,
  replaceSaverSerde,
  saverSerde,
  setUpSqliteSaver,
  wrapSaverPool,
} from "../langchain-seam/saver-databases.js";
import {
  postgresAncestors,
  postgresSeeds,
  sqliteAncestors,
} from "../langchain-seam/saver-tables.js";
import type { StoredAncestor, StoredWrite } from "./chunk-table.js";
import { withFastLoads } from "./fast-loads.js";
import { withFastByteaArrays } from "./pg-fast-arrays.js";
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
  seedsOf: SeedReader = tupleSeeds(saver),
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
  const seeds = await seedsOf(
    String(thread),
    ns,
    [...seedAt].map(([channel, checkpointId]) => ({ channel, checkpointId })),
  );
  const result: DeltaHistory = {};
  for (const ch of channels) {
    const ordered = blocks.get(ch)!.reverse().flat();
    const values = await loadMany(ordered);
    const entry: DeltaHistory[string] = {
      writes: ordered.map((w, i) => [w.taskId, w.channel, values[i]]),
    };
    if (seeds.has(ch)) entry.seed = seeds.get(ch);
    result[ch] = entry;
  }
  return result;
}

/**
 * Reads the value each channel holds at its seed checkpoint: a map from channel to value,
 * without the channels whose checkpoint holds none.
 */
export type SeedReader = (
  thread: string,
  ns: string,
  wanted: readonly { channel: string; checkpointId: string }[],
) => Promise<Map<string, unknown>>;

/** Seeds read with one `getTuple` per seed checkpoint (what any saver can do). */
export function tupleSeeds(saver: BaseCheckpointSaver): SeedReader {
  return async (thread, ns, wanted) => {
    const out = new Map<string, unknown>();
    const byId = new Map<string, Record<string, unknown>>();
    for (const { channel, checkpointId } of wanted) {
      let values = byId.get(checkpointId);
      if (!values) {
        const tuple = await saver.getTuple({
          configurable: { thread_id: thread, checkpoint_ns: ns, checkpoint_id: checkpointId },
        });
        values = (tuple?.checkpoint.channel_values ?? {}) as Record<string, unknown>;
        byId.set(checkpointId, values);
      }
      if (Object.hasOwn(values, channel)) out.set(channel, values[channel]);
    }
    return out;
  };
}

/**
 * For a `PostgresSaver` (a saver with a `pg` pool): seeds read from its tables in one query,
 * each channel's value alone (its seed checkpoint's other channels are not read) and loaded
 * with `load`; one `getTuple` per seed when that query fails. Undefined for other savers.
 */
export function postgresSeedReader(
  saver: BaseCheckpointSaver,
  load: (type: string, value: Uint8Array | string) => Promise<unknown>,
): SeedReader | undefined {
  const database = ownSaverDatabase(saver);
  if (database?.kind !== "postgres") return undefined;
  const { pool, schema } = database;
  const fallback = tupleSeeds(saver);
  return async (thread, ns, wanted) => {
    let rows: Awaited<ReturnType<typeof postgresSeeds>>;
    try {
      rows = await postgresSeeds(pool, schema, thread, ns, wanted);
    } catch {
      return fallback(thread, ns, wanted); // a stored JSON value that is not UTF-8
    }
    const out = new Map<string, unknown>();
    for (const row of rows) out.set(row.channel, await load(row.type, row.value));
    return out;
  };
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
 * Makes a saver's cold reads fast, changing the saver in place and returning it:
 *
 * - any saver whose serializer is LangGraph's stock `JsonPlusSerializer` loads stored values
 *   through a synchronous fast path (the same values; see `FastLoadsSerde`);
 * - a `PostgresSaver`'s queries decode `bytea[]` columns directly (its pool is replaced by a
 *   stand-in that is the pool for everything else);
 * - a `SqliteSaver` or `PostgresSaver` gets a one-query `getDeltaChannelHistory` (alone they
 *   read each ancestor checkpoint in turn, which makes a cold read of a long thread slow).
 *
 * `createDeepAgent` applies it to the `checkpointer` it is given; `compactCheckpointer` to
 * the saver it wraps. Other savers are returned as they are.
 */
export function withFastReads<T>(saver: T): T {
  const s = saver as any;
  if (!s || typeof s !== "object" || s[FAST]) return saver;
  withFastDecoding(s);
  if (typeof s.getDeltaChannelHistory !== "function") return saver;
  let reader: AncestorReader | undefined;
  let seeds: SeedReader | undefined;
  const database = ownSaverDatabase(s);
  if (database?.kind === "sqlite") {
    reader = async (...args) => {
      setUpSqliteSaver(s);
      return sqliteAncestors(database.db, ...args, false);
    };
  } else if (database?.kind === "postgres") {
    reader = (...args) => postgresAncestors(database.pool, database.schema, ...args, false);
    seeds = postgresSeedReader(s, (type, value) => saverSerde(s).loadsTyped(type, value));
  }
  if (!reader) return saver;
  const fallback = s.getDeltaChannelHistory.bind(s);
  const loadMany = (items: readonly StoredWrite[]) =>
    Promise.all(
      items.map((w) => loadPlainJson(w.type, w.value) ?? saverSerde(s).loadsTyped(w.type, w.value)),
    );
  s.getDeltaChannelHistory = (options: any) =>
    readDeltaHistory(s, fallback, reader!, loadMany, options, seeds);
  s[FAST] = true;
  return saver;
}

/**
 * The first two parts of {@link withFastReads}: the fast load path for a stock serializer
 * and, on a `PostgresSaver`, the fast `bytea[]` decoding. In place; returns the saver.
 */
export function withFastDecoding<T>(saver: T): T {
  const s = saver as any;
  if (!s || typeof s !== "object") return saver;
  if (saverSerde(s)) replaceSaverSerde(s, withFastLoads);
  wrapSaverPool(s, withFastByteaArrays);
  return saver;
}
