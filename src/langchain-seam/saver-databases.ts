// Relies on: SqliteSaver keeps its better-sqlite3 Database in `db` (public); PostgresSaver
// keeps its pg Pool in `pool` and its schema in `options.schema`, PostgresStore both in
// `core.pool` and `core.schema` (private). Delve's own SqliteStore keeps `db` the same way.
// A wrapper is looked through under `inner`, `saver`, `base`, `wrapped`, `delegate`, `store`.
// Savers read `this.serde` and PostgresSaver `this.pool` on every call, so replacing either
// in place after construction takes effect; SqliteSaver creates its tables in its protected
// `setup()`, which each method calls first and which may be called again.
// Checked against: @langchain/langgraph-checkpoint-sqlite 1.0.4,
// @langchain/langgraph-checkpoint-postgres 1.0.5, @langchain/langgraph 1.7.3.
import type { SerializerProtocol } from "@langchain/langgraph-checkpoint";

/** The SQL database a saver or store keeps its data in, reached by shape. */
export type SaverDatabase =
  | { kind: "sqlite"; db: SqliteHandle }
  | { kind: "postgres"; pool: PostgresPool; schema: string };

/** The part of a better-sqlite3 Database Delve uses. */
export interface SqliteHandle {
  open: boolean;
  exec(sql: string): unknown;
  prepare(sql: string): any;
  transaction<F extends (...args: any[]) => any>(fn: F): F & { immediate: F };
}

/** The part of a pg Pool Delve uses. */
export interface PostgresPool {
  query(text: string, values?: unknown[]): Promise<{ rows: any[]; rowCount: number | null }>;
  connect(): Promise<unknown>;
}

const WRAPPED = ["inner", "saver", "base", "wrapped", "delegate", "store"];

/**
 * The object that holds the database: `holder` itself, or the saver or store a wrapper
 * delegates to, a few levels down. Undefined for a non-object.
 */
export function databaseHolder(holder: unknown, depth = 0): object | undefined {
  if (!holder || typeof holder !== "object") return undefined;
  const h = holder as Record<string, any>;
  if (h.db || h.pool || h.core?.pool || depth >= 3) return h;
  for (const key of WRAPPED) {
    const inner = h[key];
    if (inner && typeof inner === "object" && inner !== h) return databaseHolder(inner, depth + 1);
  }
  return h;
}

/**
 * The SQLite or PostgreSQL database `holder` (a saver, a store, or a wrapper of one) keeps
 * its data in; undefined for MemorySaver, InMemoryStore and anything else.
 *
 * @example
 * saverDatabase(SqliteSaver.fromConnString("threads.db")) // { kind: "sqlite", db }
 */
export function saverDatabase(given: unknown): SaverDatabase | undefined {
  return ownSaverDatabase(databaseHolder(given));
}

/**
 * The database `holder` itself keeps (not one a wrapper delegates to): what
 * {@link saverDatabase} finds once the wrapper is looked through.
 */
export function ownSaverDatabase(given: unknown): SaverDatabase | undefined {
  if (!given || typeof given !== "object") return undefined;
  const holder = given as Record<string, any>;
  const db = holder?.db;
  if (typeof db?.prepare === "function" && typeof db?.exec === "function" && db.open) {
    return { kind: "sqlite", db };
  }
  const pool = holder?.pool ?? holder?.core?.pool;
  if (typeof pool?.query === "function" && typeof pool?.connect === "function") {
    return {
      kind: "postgres",
      pool,
      schema: holder?.options?.schema ?? holder?.core?.schema ?? "public",
    };
  }
  return undefined;
}

/** A saver's serializer (`serde`, public on BaseCheckpointSaver), read when called. */
export function saverSerde(saver: object): SerializerProtocol {
  return (saver as { serde: SerializerProtocol }).serde;
}

/** Gives a saver the serializer `make` builds from its current one; it serves every call after. */
export function replaceSaverSerde(
  saver: object,
  make: (current: SerializerProtocol) => SerializerProtocol,
): SerializerProtocol {
  const s = saver as { serde: SerializerProtocol };
  s.serde = make(s.serde);
  return s.serde;
}

/**
 * Gives a PostgresSaver the pool `wrap` builds from its own (every later query goes through
 * it). False, and nothing changed, when `saver` holds no pg pool of its own.
 */
export function wrapSaverPool<P>(saver: object, wrap: (pool: P) => P): boolean {
  const s = saver as { pool?: P; getTuple?: unknown };
  if (ownSaverDatabase(saver)?.kind !== "postgres" || typeof s.getTuple !== "function") {
    return false;
  }
  s.pool = wrap(s.pool as P);
  return true;
}

/** Creates a SqliteSaver's tables if they are not there yet (a no-op for other savers). */
export function setUpSqliteSaver(saver: object): void {
  (saver as { setup?: () => void }).setup?.();
}
