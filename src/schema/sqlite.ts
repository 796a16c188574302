// Delve's own tables in a SQLite file: what each part of Delve creates, at which version, and
// how a file is brought up to it. The file is often LangGraph's (a SqliteSaver's), so Delve's
// versions live in their own table rather than in PRAGMA user_version.
import type { SqliteHandle } from "../langchain-seam/saver-databases.js";

/** A part of Delve that keeps tables in a SQLite file. */
export type SqlitePart = "chunks" | "claims" | "store";

// Each part's migrations, oldest first: migration N brings the part from version N-1 to N.
const MIGRATIONS: Record<SqlitePart, readonly string[]> = {
  // compactCheckpointer's strings and side rows, in a SqliteSaver's file (sqlite-chunks.ts).
  // Version 1 is what Delve created before versions were kept: a file that has the tables
  // without a version row is at 1 already (each statement is IF NOT EXISTS).
  chunks: [
    `
CREATE TABLE IF NOT EXISTS delve_chunks (hash TEXT PRIMARY KEY, data TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS delve_chunk_refs (
  thread_id TEXT NOT NULL, hash TEXT NOT NULL, PRIMARY KEY (thread_id, hash)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS delve_chunk_refs_by_hash ON delve_chunk_refs (hash);
CREATE TABLE IF NOT EXISTS delve_checkpoint_channels (
  thread_id TEXT NOT NULL, checkpoint_ns TEXT NOT NULL, checkpoint_id TEXT NOT NULL,
  channels TEXT NOT NULL, PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS delve_task_paths (
  thread_id TEXT NOT NULL, checkpoint_ns TEXT NOT NULL, checkpoint_id TEXT NOT NULL,
  task_id TEXT NOT NULL, task_path TEXT NOT NULL,
  PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, task_id)) WITHOUT ROWID;
`,
  ],
  // Approval and idempotency claims, in the file of a saver or store (see claim-table.ts).
  claims: ["CREATE TABLE IF NOT EXISTS delve_claims (key TEXT PRIMARY KEY, value TEXT NOT NULL)"],
  // SqliteStore's items, in its own file.
  store: [
    `CREATE TABLE IF NOT EXISTS store_items (
      namespace TEXT NOT NULL,
      key TEXT NOT NULL,
      value TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      UNIQUE (namespace, key)
    )`,
  ],
};

/** The schema version of each part this build of Delve writes. */
export const SQLITE_SCHEMA_VERSIONS: Readonly<Record<SqlitePart, number>> = {
  chunks: MIGRATIONS.chunks.length,
  claims: MIGRATIONS.claims.length,
  store: MIGRATIONS.store.length,
};

const VERSIONS_DDL =
  "CREATE TABLE IF NOT EXISTS delve_schema_versions (part TEXT PRIMARY KEY, version INTEGER NOT NULL)";

/**
 * Creates or migrates `part`'s tables in `db`, in one write transaction (so processes opening
 * the same file at once migrate it once). Refuses a file written by a newer Delve.
 *
 * @example
 * ensureSqliteSchema(db, "claims"); // delve_claims exists, version recorded
 */
export function ensureSqliteSchema(db: SqliteHandle, part: SqlitePart): void {
  const migrations = MIGRATIONS[part];
  db.transaction(() => {
    db.exec(VERSIONS_DDL);
    const row = db.prepare("SELECT version FROM delve_schema_versions WHERE part = ?").get(part);
    const version: number = row?.version ?? 0;
    if (version > migrations.length) {
      throw new Error(
        `delve's ${part} tables in this SQLite file are at schema version ${version}; this version of delve knows up to ${migrations.length}. Upgrade delve.`,
      );
    }
    if (version === migrations.length) return;
    for (const sql of migrations.slice(version)) db.exec(sql);
    db.prepare(
      "INSERT INTO delve_schema_versions (part, version) VALUES (?, ?) ON CONFLICT (part) DO UPDATE SET version = excluded.version",
    ).run(part, migrations.length);
  }).immediate();
}
