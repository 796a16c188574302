// Delve's own tables in a PostgreSQL schema (the schema of a PostgresSaver or PostgresStore):
// what each part creates, at which version, and how a schema is brought up to it.
import type { PostgresPool } from "../langchain-seam/saver-databases.js";

/** A part of Delve that keeps tables in a PostgreSQL schema. */
export type PostgresPart = "chunks" | "claims";

// Each part's migrations, oldest first; `s` is the quoted schema name.
const MIGRATIONS: Record<PostgresPart, readonly ((s: string) => string)[]> = {
  // compactCheckpointer's strings and task paths, in a PostgresSaver's schema
  // (postgres-chunks.ts). Version 1 is what Delve created before versions were kept.
  chunks: [
    (s) => `
CREATE TABLE IF NOT EXISTS ${s}.delve_chunks (hash text PRIMARY KEY, data text NOT NULL);
CREATE TABLE IF NOT EXISTS ${s}.delve_chunk_refs (thread_id text NOT NULL, hash text NOT NULL,
  PRIMARY KEY (thread_id, hash));
CREATE INDEX IF NOT EXISTS delve_chunk_refs_by_hash ON ${s}.delve_chunk_refs (hash);
CREATE TABLE IF NOT EXISTS ${s}.delve_task_paths (thread_id text NOT NULL,
  checkpoint_ns text NOT NULL, checkpoint_id text NOT NULL, task_id text NOT NULL,
  task_path text NOT NULL, PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, task_id));`,
  ],
  claims: [
    (s) =>
      `CREATE TABLE IF NOT EXISTS ${s}.delve_claims (key text PRIMARY KEY, value text NOT NULL)`,
  ],
};

/** The schema version of each part this build of Delve writes. */
export const POSTGRES_SCHEMA_VERSIONS: Readonly<Record<PostgresPart, number>> = {
  chunks: MIGRATIONS.chunks.length,
  claims: MIGRATIONS.claims.length,
};

/** A schema name as a quoted SQL identifier. */
export function quotedSchema(schema: string): string {
  return `"${schema.replaceAll('"', '""')}"`;
}

// Codes of a concurrent CREATE by another connection (unique violation, duplicate table,
// duplicate schema): the object exists, so trying again finds it.
const RACED = new Set(["23505", "42P07", "42P06"]);

/**
 * Creates or migrates `part`'s tables in `schema`, under an advisory lock so processes
 * starting at once migrate it once. Refuses a schema written by a newer Delve.
 *
 * @example
 * await ensurePostgresSchema(pool, "public", "claims");
 */
export async function ensurePostgresSchema(
  pool: PostgresPool,
  schema: string,
  part: PostgresPart,
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await migrate(pool, schema, part);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt >= 2 || !code || !RACED.has(code)) throw error;
    }
  }
}

async function migrate(pool: PostgresPool, schema: string, part: PostgresPart): Promise<void> {
  const s = quotedSchema(schema);
  const migrations = MIGRATIONS[part];
  const client = (await pool.connect()) as {
    query: PostgresPool["query"];
    release: () => void;
  };
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`delve_schema:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${s}.delve_schema_versions (part text PRIMARY KEY, version integer NOT NULL)`,
    );
    const found = await client.query(
      `SELECT version FROM ${s}.delve_schema_versions WHERE part = $1`,
      [part],
    );
    const version: number = found.rows[0]?.version ?? 0;
    if (version > migrations.length) {
      throw new Error(
        `delve's ${part} tables in schema ${schema} are at schema version ${version}; this version of delve knows up to ${migrations.length}. Upgrade delve.`,
      );
    }
    for (const sql of migrations.slice(version)) await client.query(sql(s));
    if (version < migrations.length) {
      await client.query(
        `INSERT INTO ${s}.delve_schema_versions (part, version) VALUES ($1, $2)
         ON CONFLICT (part) DO UPDATE SET version = excluded.version`,
        [part, migrations.length],
      );
    }
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
