import {
  databaseHolder,
  type PostgresPool,
  type SqliteHandle,
  saverDatabase,
} from "../langchain-seam/saver-databases.js";
import { ensurePostgresSchema, quotedSchema } from "../schema/postgres.js";
import { ensureSqliteSchema } from "../schema/sqlite.js";
/**
 * A claim is one row with a unique key: whoever inserts it first owns the work it names, in
 * every process that shares the database. Approvals claim a tool call before running it and
 * `idempotent()` claims a key before running its tool, so two racing callers never both act.
 */
export interface ClaimTable {
  /** True when claims are shared by every process using the same database. */
  readonly durable: boolean;
  /** Inserts `key` with `value` unless it exists: undefined when this caller inserted it, else the value found. */
  insert(key: string, value: string): Promise<string | undefined>;
  /** The value of `key`, or undefined. */
  get(key: string): Promise<string | undefined>;
  /** Replaces the value of `key` when it is still `expected`; true when this caller did. */
  swap(key: string, expected: string, next: string): Promise<boolean>;
  /** Deletes `key` when its value is still `expected`; true when this caller did. */
  remove(key: string, expected: string): Promise<boolean>;
  /** Deletes every claim whose key starts with `prefix`; how many went. */
  removePrefix(prefix: string): Promise<number>;
}

const TABLE = "delve_claims";
const tables = new WeakMap<object, ClaimTable>();
// The owner of the claims made outside any checkpointer or store.
const processTables = {};

/**
 * The claim table that lives where `holder` keeps its data: the SQLite file of a
 * `SqliteSaver` or `SqliteStore`, the PostgreSQL database of a `PostgresSaver` or
 * `PostgresStore`, also when `holder` wraps one of them (under `inner`, `saver`, `base`,
 * `wrapped`, `delegate` or `store`). Anything else (MemorySaver, InMemoryStore, another
 * class) gets a table in this process's memory, shared by every user of the same `holder`:
 * it serialises callers in this process only.
 *
 * @example
 * const claims = claimTableOf(checkpointer);
 * if ((await claims.insert("approval:t1:call_1", "running")) === undefined) await runTool();
 */
export function claimTableOf(holder: object | undefined): ClaimTable {
  // Keyed by what holds the data, so a wrapper made per run (LangGraph wraps the agent's
  // store in an AsyncBatchedStore) still shares its in-process claims with the next run.
  const owner: object = databaseHolder(holder) ?? processTables;
  let table = tables.get(owner);
  if (!table) {
    const database = saverDatabase(owner);
    table =
      database?.kind === "sqlite"
        ? sqliteTable(database.db)
        : database?.kind === "postgres"
          ? postgresTable(database.pool, database.schema)
          : memoryTable();
    tables.set(owner, table);
  }
  return table;
}

function memoryTable(): ClaimTable {
  const rows = new Map<string, string>();
  return {
    durable: false,
    insert: async (key, value) => {
      const found = rows.get(key);
      if (found === undefined) rows.set(key, value);
      return found;
    },
    get: async (key) => rows.get(key),
    swap: async (key, expected, next) => {
      if (rows.get(key) !== expected) return false;
      rows.set(key, next);
      return true;
    },
    remove: async (key, expected) => rows.get(key) === expected && rows.delete(key),
    removePrefix: async (prefix) => {
      let removed = 0;
      for (const key of [...rows.keys()]) if (key.startsWith(prefix) && rows.delete(key)) removed++;
      return removed;
    },
  };
}

// Claims in the saver's (or store's) own SQLite file.
function sqliteTable(db: SqliteHandle): ClaimTable {
  let sql: Record<"insert" | "get" | "swap" | "remove" | "removePrefix", any> | undefined;
  const prepared = () => {
    if (sql) return sql;
    ensureSqliteSchema(db, "claims");
    sql = {
      insert: db.prepare(`INSERT INTO ${TABLE} (key, value) VALUES (?, ?) ON CONFLICT DO NOTHING`),
      get: db.prepare(`SELECT value FROM ${TABLE} WHERE key = ?`),
      swap: db.prepare(`UPDATE ${TABLE} SET value = ? WHERE key = ? AND value = ?`),
      remove: db.prepare(`DELETE FROM ${TABLE} WHERE key = ? AND value = ?`),
      // substr and length both count characters, so any prefix matches exactly.
      removePrefix: db.prepare(`DELETE FROM ${TABLE} WHERE substr(key, 1, length(@p)) = @p`),
    };
    return sql;
  };
  const get = (key: string): string | undefined => prepared().get.get(key)?.value;
  // Insert-then-read in one write transaction, so the value read is the one that won.
  const insert = db.transaction((key: string, value: string) =>
    prepared().insert.run(key, value).changes === 1 ? undefined : get(key),
  );
  return {
    durable: true,
    insert: async (key, value) => insert.immediate(key, value),
    get: async (key) => get(key),
    swap: async (key, expected, next) => prepared().swap.run(next, key, expected).changes === 1,
    remove: async (key, expected) => prepared().remove.run(key, expected).changes === 1,
    removePrefix: async (prefix) => prepared().removePrefix.run({ p: prefix }).changes,
  };
}

// Claims in the saver's (or store's) own PostgreSQL schema.
function postgresTable(pool: PostgresPool, schema: string): ClaimTable {
  const table = `${quotedSchema(schema)}.${TABLE}`;
  let ready: Promise<void> | undefined;
  const query = async (text: string, values: unknown[]) => {
    ready ??= ensurePostgresSchema(pool, schema, "claims").catch((error) => {
      ready = undefined;
      throw error;
    });
    await ready;
    return pool.query(text, values);
  };
  const get = async (key: string): Promise<string | undefined> =>
    (await query(`SELECT value FROM ${table} WHERE key = $1`, [key])).rows[0]?.value;
  return {
    durable: true,
    insert: async (key, value) => {
      // The row can vanish between the insert and the read only when its owner removed it;
      // then claiming again is the right answer.
      for (let attempt = 0; ; attempt++) {
        const inserted = await query(
          `INSERT INTO ${table} (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING`,
          [key, value],
        );
        if (inserted.rowCount === 1) return undefined;
        const found = await get(key);
        if (found !== undefined || attempt >= 3) return found ?? "";
      }
    },
    get,
    swap: async (key, expected, next) =>
      (
        await query(`UPDATE ${table} SET value = $1 WHERE key = $2 AND value = $3`, [
          next,
          key,
          expected,
        ])
      ).rowCount === 1,
    remove: async (key, expected) =>
      (await query(`DELETE FROM ${table} WHERE key = $1 AND value = $2`, [key, expected]))
        .rowCount === 1,
    removePrefix: async (prefix) =>
      (await query(`DELETE FROM ${table} WHERE left(key, length($1)) = $1`, [prefix])).rowCount ??
      0,
  };
}
