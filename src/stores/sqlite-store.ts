import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import {
  BaseStore,
  type GetOperation,
  type Item,
  type ListNamespacesOperation,
  type MatchCondition,
  type Operation,
  type OperationResults,
  type PutOperation,
  type SearchOperation,
} from "@langchain/langgraph";
import type BetterSqlite3 from "better-sqlite3";
import { ConfigurationError } from "../errors/configuration-error.js";
import type { SqliteHandle } from "../langchain-seam/saver-databases.js";
import { ensureSqliteSchema } from "../schema/sqlite.js";

/** Options of `SqliteStore`. */
export interface SqliteStoreOptions {
  /** The database file (parent directories are created), or ":memory:". */
  path: string;
  /** How long a write waits for another connection's lock, in milliseconds. Default 5,000. */
  busyTimeoutMs?: number;
}

type SearchItem = Item & { score?: number };
type Row = {
  namespace: string;
  key: string;
  value: string;
  created_at: number;
  updated_at: number;
};

// Labels are joined with ".", which LangGraph forbids inside a label, so the join is lossless
// and every namespace under prefix P sorts in the range [P, P + "/") ("/" follows ".").
const SEP = ".";
const AFTER_SEP = "/";

/**
 * A LangGraph `BaseStore` in one SQLite file (better-sqlite3, WAL mode) that survives a
 * restart and can be shared by several processes. It is Delve's embedded store: pass it to
 * `StoreBackend` (files shared across threads), to `idempotent` (records that survive a
 * restart, claimed in a `delve_claims` table of the same file so processes racing on a key
 * run the tool once) or to `createDeepAgent({ store })`; each keeps its data under its own
 * namespaces.
 * Import it from `delve/sqlite` (needs the optional peer `better-sqlite3`). It follows
 * `InMemoryStore`: items carry `createdAt`/`updatedAt`, `search` returns 10 items unless
 * given a `limit`, `filter` compares top-level value fields (equality, or
 * `$eq $ne $gt $gte $lt $lte $in $nin`; objects compare by content), `listNamespaces` takes
 * prefix/suffix conditions with `"*"` wildcards and `maxDepth`. Differences, on purpose:
 * there is no vector search (a `query` is ignored and results are unscored, as in an
 * `InMemoryStore` without an index); results are ordered by namespace then key, so paging is
 * stable; namespaces are listed label by label; a batch runs its operations in order inside
 * one transaction (all or nothing); a namespace whose items are all deleted is not listed.
 *
 * @example
 * const store = SqliteStore.open(".delve/store.db");
 * await store.put(["users", "ana"], "prefs", { theme: "dark" });
 * await store.get(["users", "ana"], "prefs"); // { value: { theme: "dark" }, createdAt, ... }
 * store.close();
 */
export class SqliteStore extends BaseStore {
  /** The file this store lives in (absolute), or ":memory:". */
  readonly path: string;
  private db: BetterSqlite3.Database | undefined;
  private readonly sql: ReturnType<typeof prepareStatements>;

  /** Opens (creating if needed) the store at `path`. */
  static open(path: string, options: Omit<SqliteStoreOptions, "path"> = {}): SqliteStore {
    return new SqliteStore({ ...options, path });
  }

  constructor(options: SqliteStoreOptions) {
    super();
    if (!options || typeof options.path !== "string" || options.path.length === 0) {
      throw new ConfigurationError(
        "MISSING_PATH",
        'SqliteStore needs a path: new SqliteStore({ path: "store.db" }) or { path: ":memory:" }.',
      );
    }
    const memory = options.path === ":memory:";
    this.path = memory ? options.path : resolve(options.path);
    if (!memory) mkdirSync(dirname(this.path), { recursive: true });
    const Database = loadBetterSqlite3();
    const db = new Database(this.path);
    try {
      db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
      // WAL lets readers in other processes work while one writes; NORMAL sync is still
      // durable across a process crash, which is what a restart needs.
      if (!memory) db.pragma("journal_mode = WAL");
      db.pragma("synchronous = NORMAL");
      ensureSqliteSchema(db as unknown as SqliteHandle, "store");
      this.sql = prepareStatements(db);
    } catch (error) {
      db.close();
      throw error;
    }
    this.db = db;
  }

  /** True once `close()` (or `stop()`) has run. */
  get closed(): boolean {
    return this.db === undefined;
  }

  /** Runs the operations in order, in one transaction; results line up with `operations`. */
  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const db = this.db;
    if (!db) throw new Error(`SqliteStore ${this.path} is closed.`);
    const kinds = operations.map(classify);
    const run = db.transaction(() =>
      operations.map((op, i) => {
        switch (kinds[i]) {
          case "get":
            return this.getOne(op as GetOperation);
          case "put":
            return this.putOne(op as PutOperation);
          case "search":
            return this.searchMany(op as SearchOperation);
          default:
            return this.listOne(op as ListNamespacesOperation);
        }
      }),
    );
    // A writing batch takes the write lock up front: upgrading a read lock later can fail
    // with SQLITE_BUSY when another process writes at the same time.
    const results = kinds.includes("put") ? run.immediate() : run.deferred();
    return results as OperationResults<Op>;
  }

  /** Closes the database file. Later operations throw. Safe to call twice. */
  close(): void {
    this.db?.close();
    this.db = undefined;
  }

  /** LangGraph's lifecycle hook; closes the store like `close()`. */
  override stop(): void {
    this.close();
  }

  private getOne(op: GetOperation): Item | null {
    const row = this.sql.get.get(joinNamespace(op.namespace), op.key) as Row | undefined;
    return row ? toItem(row) : null;
  }

  private putOne(op: PutOperation): void {
    const namespace = joinNamespace(op.namespace);
    if (op.value === null) {
      this.sql.delete.run(namespace, op.key);
      return;
    }
    const now = Date.now();
    this.sql.upsert.run(namespace, op.key, JSON.stringify(op.value), now, now);
  }

  private searchMany(op: SearchOperation): SearchItem[] {
    const limit = Math.max(0, Math.floor(op.limit ?? 10));
    const offset = Math.max(0, Math.floor(op.offset ?? 0));
    if (limit === 0) return [];
    const prefix = op.namespacePrefix.length > 0 ? joinNamespace(op.namespacePrefix) : undefined;
    const filter = op.filter && Object.keys(op.filter).length > 0 ? op.filter : undefined;
    if (!filter) {
      const rows = (
        prefix === undefined
          ? this.sql.searchAll.all(limit, offset)
          : this.sql.searchPrefix.all(...prefixRange(prefix), limit, offset)
      ) as Row[];
      return rows.map(toItem);
    }
    // Filters run in JS so they behave exactly like InMemoryStore's; rows stream from an
    // index-ordered cursor and the scan stops once the page is full.
    const rows = (
      prefix === undefined
        ? this.sql.searchAll.iterate(-1, 0)
        : this.sql.searchPrefix.iterate(...prefixRange(prefix), -1, 0)
    ) as IterableIterator<Row>;
    const out: SearchItem[] = [];
    let skipped = 0;
    for (const row of rows) {
      const item = toItem(row);
      if (!matchesFilter(item.value, filter)) continue;
      if (skipped < offset) {
        skipped++;
        continue;
      }
      out.push(item);
      if (out.length >= limit) break;
    }
    return out;
  }

  private listOne(op: ListNamespacesOperation): string[][] {
    const conditions = op.matchConditions ?? [];
    // Narrow the scan with the literal head of a prefix condition, then match exactly.
    const literal: string[] = [];
    for (const label of conditions.find((c) => c.matchType === "prefix")?.path ?? []) {
      if (label === "*") break;
      literal.push(label);
    }
    const low = literal.length > 0 ? joinNamespace(literal) : "";
    const high = literal.length > 0 ? `${low}${AFTER_SEP}` : undefined;
    const seen = new Map<string, string[]>();
    // Skip-scan over the (namespace, key) index: one seek per distinct namespace, never a
    // pass over every item.
    let row = this.sql.firstNamespace.get(low) as { namespace: string } | undefined;
    while (row && (high === undefined || row.namespace < high)) {
      let labels = row.namespace.split(SEP);
      if (conditions.every((c) => matchesCondition(c, labels))) {
        if (op.maxDepth !== undefined) labels = labels.slice(0, Math.max(0, op.maxDepth));
        seen.set(labels.join(SEP), labels);
      }
      row = this.sql.nextNamespace.get(row.namespace) as { namespace: string } | undefined;
    }
    const all = [...seen.values()].sort(compareLabels);
    const offset = Math.max(0, op.offset ?? 0);
    return all.slice(offset, op.limit === undefined ? undefined : offset + op.limit);
  }
}

function loadBetterSqlite3(): typeof BetterSqlite3 {
  try {
    return createRequire(import.meta.url)("better-sqlite3") as typeof BetterSqlite3;
  } catch (cause) {
    throw new ConfigurationError(
      "MISSING_DEPENDENCY",
      "SqliteStore needs the better-sqlite3 package. Install it with: npm install better-sqlite3",
      { packageName: "better-sqlite3", cause },
    );
  }
}

function prepareStatements(db: BetterSqlite3.Database) {
  const columns = "namespace, key, value, created_at, updated_at";
  return {
    get: db.prepare(`SELECT ${columns} FROM store_items WHERE namespace = ? AND key = ?`),
    delete: db.prepare("DELETE FROM store_items WHERE namespace = ? AND key = ?"),
    upsert: db.prepare(
      `INSERT INTO store_items (${columns}) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
    ),
    searchAll: db.prepare(
      `SELECT ${columns} FROM store_items ORDER BY namespace, key LIMIT ? OFFSET ?`,
    ),
    searchPrefix: db.prepare(
      `SELECT ${columns} FROM store_items
       WHERE namespace >= ? AND namespace < ? AND (namespace = ? OR namespace >= ?)
       ORDER BY namespace, key LIMIT ? OFFSET ?`,
    ),
    firstNamespace: db.prepare(
      "SELECT namespace FROM store_items WHERE namespace >= ? ORDER BY namespace LIMIT 1",
    ),
    nextNamespace: db.prepare(
      "SELECT namespace FROM store_items WHERE namespace > ? ORDER BY namespace LIMIT 1",
    ),
  };
}

// Namespace P and those under it: one index range [P, P + "/") read in order, minus the
// siblings inside it that are not P itself and do not start with P + "." (like "P-x").
function prefixRange(prefix: string): [string, string, string, string] {
  return [prefix, `${prefix}${AFTER_SEP}`, prefix, `${prefix}${SEP}`];
}

function toItem(row: Row): SearchItem {
  return {
    namespace: row.namespace.split(SEP),
    key: row.key,
    value: JSON.parse(row.value),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

// Validation happens before the transaction starts, so a bad operation changes nothing.
function classify(op: Operation): "get" | "put" | "search" | "list" {
  if (typeof op !== "object" || op === null) throw new Error("SqliteStore: invalid operation.");
  if ("namespacePrefix" in op) {
    if (op.namespacePrefix.length > 0) validateNamespace(op.namespacePrefix);
    return "search";
  }
  if ("namespace" in op && "key" in op) {
    validateNamespace(op.namespace);
    if (typeof op.key !== "string") throw new Error("SqliteStore: an item key must be a string.");
    if (!("value" in op)) return "get";
    if (op.value !== null && (typeof op.value !== "object" || Array.isArray(op.value))) {
      throw new Error("SqliteStore: a put value must be an object, or null to delete.");
    }
    return "put";
  }
  if ("matchConditions" in op || "limit" in op || "maxDepth" in op) return "list";
  throw new Error(`SqliteStore: unsupported operation ${JSON.stringify(op)}.`);
}

/** LangGraph's namespace rules: non-empty string labels without "." or ":" or NUL. */
function validateNamespace(namespace: unknown): asserts namespace is string[] {
  if (!Array.isArray(namespace) || namespace.length === 0) {
    throw new Error("SqliteStore: a namespace must be a non-empty array of labels.");
  }
  for (const label of namespace) {
    if (typeof label !== "string" || label === "" || /[.:\0]/.test(label)) {
      throw new Error(
        `SqliteStore: invalid namespace label ${JSON.stringify(label)}: labels are non-empty strings without ".", ":" or NUL.`,
      );
    }
  }
}

function joinNamespace(namespace: string[]): string {
  return namespace.join(SEP);
}

function matchesCondition(condition: MatchCondition, labels: string[]): boolean {
  const { path, matchType } = condition;
  if (path.length > labels.length) return false;
  const start = matchType === "suffix" ? labels.length - path.length : 0;
  return path.every((label, i) => label === "*" || label === labels[start + i]);
}

function compareLabels(a: string[], b: string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  }
  return a.length - b.length;
}

const OPERATORS = new Set(["$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin"]);

// True when every filter field matches the item's top-level value field.
function matchesFilter(value: Record<string, unknown>, filter: Record<string, unknown>): boolean {
  return Object.entries(filter).every(([field, expected]) => {
    const actual = value[field];
    if (!isOperatorObject(expected)) return sameValue(actual, expected);
    return Object.entries(expected).every(([op, operand]) => applyOperator(op, actual, operand));
  });
}

function isOperatorObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => OPERATORS.has(k));
}

function applyOperator(op: string, actual: unknown, operand: unknown): boolean {
  switch (op) {
    case "$eq":
      return sameValue(actual, operand);
    case "$ne":
      return !sameValue(actual, operand);
    case "$in":
      return Array.isArray(operand) && operand.some((o) => sameValue(actual, o));
    case "$nin":
      return !Array.isArray(operand) || !operand.some((o) => sameValue(actual, o));
    default: {
      // Strings compare as strings (ISO dates order correctly); anything else as numbers.
      const both = typeof actual === "string" && typeof operand === "string";
      const a = both ? actual : Number(actual);
      const b = both ? operand : Number(operand);
      if (op === "$gt") return a > b;
      if (op === "$gte") return a >= b;
      if (op === "$lt") return a < b;
      return a <= b;
    }
  }
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const aKeys = Object.keys(a);
  const bKeys = Object.keys(b);
  if (aKeys.length !== bKeys.length) return false;
  return aKeys.every((k) => Object.hasOwn(b, k) && sameValue((a as any)[k], (b as any)[k]));
}
