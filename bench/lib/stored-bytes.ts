/**
 * Bytes a saver's database holds, counted the strict way: every column of every table that
 * is not part of the table's primary key (ids, versions as JSON, task paths, side tables
 * included), uncompressed (`length` of the blob in SQLite, `octet_length` in PostgreSQL; JSON
 * columns as text).
 *
 * @example
 * const bytes = sqliteStoredBytes(saver.db);
 */

interface SqliteDb {
  prepare(sql: string): { all(...args: unknown[]): any[]; get(...args: unknown[]): any };
}

interface PgPool {
  query(sql: string, params?: unknown[]): Promise<{ rows: any[] }>;
}

/** Per table, then in total: the bytes of a SQLite file's non-key columns. */
export function sqliteStoredBytes(db: SqliteDb): { total: number; tables: Record<string, number> } {
  const tables: Record<string, number> = {};
  let total = 0;
  for (const { name } of db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all()) {
    const columns = db
      .prepare("SELECT name, pk FROM pragma_table_info(?)")
      .all(name)
      .filter((c) => !c.pk);
    if (columns.length === 0) continue;
    const sum = columns.map((c) => `COALESCE(length(CAST("${c.name}" AS BLOB)), 0)`).join(" + ");
    const n = Number(db.prepare(`SELECT COALESCE(SUM(${sum}), 0) AS n FROM "${name}"`).get()?.n);
    tables[name] = n;
    total += n;
  }
  return { total, tables };
}

/** Per table, then in total: the bytes of a PostgreSQL schema's non-key columns. */
export async function postgresStoredBytes(
  pool: PgPool,
  schema: string,
): Promise<{ total: number; tables: Record<string, number> }> {
  const { rows: columns } = await pool.query(
    `SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns c
     JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
     WHERE c.table_schema = $1 AND t.table_type = 'BASE TABLE' AND NOT EXISTS (
       SELECT 1 FROM information_schema.table_constraints k
       JOIN information_schema.key_column_usage u ON u.constraint_name = k.constraint_name
         AND u.table_schema = k.table_schema AND u.table_name = k.table_name
       WHERE k.constraint_type = 'PRIMARY KEY' AND k.table_schema = c.table_schema
         AND k.table_name = c.table_name AND u.column_name = c.column_name)`,
    [schema],
  );
  const byTable = new Map<string, string[]>();
  for (const c of columns) {
    const value = ["bytea", "text"].includes(c.data_type)
      ? `"${c.column_name}"`
      : `"${c.column_name}"::text`;
    byTable.set(c.table_name, [
      ...(byTable.get(c.table_name) ?? []),
      `COALESCE(octet_length(${value}), 0)`,
    ]);
  }
  const tables: Record<string, number> = {};
  let total = 0;
  const s = `"${schema.replace(/"/g, '""')}"`;
  for (const [table, sums] of byTable) {
    const { rows } = await pool.query(
      `SELECT COALESCE(SUM(${sums.join(" + ")}), 0) AS n FROM ${s}."${table}"`,
    );
    tables[table] = Number(rows[0]?.n ?? 0);
    total += tables[table]!;
  }
  return { total, tables };
}
