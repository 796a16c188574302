import type Database from "better-sqlite3";

/** The JSON type a column's values take, from SQLite's type affinity rules. */
export type ColumnKind = "integer" | "number" | "string" | "blob";

/** One column as the generated tool describes and filters it. */
export interface ColumnSpec {
  name: string;
  /** The declared type, as written in CREATE TABLE ("INTEGER", "TEXT", ...). */
  declared: string;
  kind: ColumnKind;
  primaryKey: boolean;
  /** Allowed values, from a `CHECK (col IN ('a', 'b'))` constraint. */
  values?: string[];
  /** The column's comment from the comments table. */
  comment?: string;
}

/** One table as the generated tool exposes it. */
export interface TableSpec {
  name: string;
  /** What the table holds: the option, else the comments table. */
  purpose?: string;
  columns: ColumnSpec[];
}

/** Double-quotes an SQL identifier; identifiers only ever come from the schema itself. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The schema's version: SQLite bumps it on every CREATE, ALTER and DROP. */
export function schemaVersion(db: Database.Database): number {
  return Number(db.pragma("schema_version", { simple: true }));
}

/** Names of the user tables, sorted, without SQLite's own and the comments table. */
export function tableNames(db: Database.Database, commentsTable: string): string[] {
  const rows = db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
    )
    .all() as Array<{ name: string }>;
  return rows.map((r) => r.name).filter((name) => name !== commentsTable);
}

/**
 * Reads one table's columns (types, primary key, CHECK-IN value sets) and comments.
 * Comments live in an optional table `(table_name, column_name, comment)`, a NULL
 * column_name commenting the table itself.
 */
export function readTable(
  db: Database.Database,
  table: string,
  commentsTable: string,
  purpose?: string,
): TableSpec {
  const info = db.pragma(`table_info(${quoteIdent(table)})`) as Array<{
    name: string;
    type: string;
    pk: number;
  }>;
  const sql =
    (
      db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) as
        | { sql: string }
        | undefined
    )?.sql ?? "";
  const comments = readComments(db, commentsTable, table);
  return {
    name: table,
    purpose: purpose ?? comments.get(null),
    columns: info.map((c) => ({
      name: c.name,
      declared: c.type || "ANY",
      kind: affinity(c.type),
      primaryKey: c.pk > 0,
      values: checkedValues(sql, c.name),
      comment: comments.get(c.name),
    })),
  };
}

// SQLite's affinity rules (section 3.1 of its datatype page), mapped to JSON types.
function affinity(declared: string): ColumnKind {
  const type = declared.toUpperCase();
  if (type.includes("INT")) return "integer";
  if (/CHAR|CLOB|TEXT/.test(type)) return "string";
  if (type === "" || type.includes("BLOB")) return "blob";
  return "number";
}

// Values of a `CHECK (col IN ('a', 'b'))` constraint, so the schema can offer an enum.
function checkedValues(sql: string, column: string): string[] | undefined {
  const name = column.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const match = new RegExp(
    `CHECK\\s*\\(\\s*["\`[]?${name}["\`\\]]?\\s+IN\\s*\\(([^)]*)\\)`,
    "i",
  ).exec(sql);
  if (!match) return undefined;
  const values = [...match[1]!.matchAll(/'((?:[^']|'')*)'/g)].map((m) => m[1]!.replace(/''/g, "'"));
  return values.length ? values : undefined;
}

function readComments(
  db: Database.Database,
  commentsTable: string,
  table: string,
): Map<string | null, string> {
  const exists = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")
    .get(commentsTable);
  if (!exists) return new Map();
  const rows = db
    .prepare(`SELECT column_name, comment FROM ${quoteIdent(commentsTable)} WHERE table_name = ?`)
    .all(table) as Array<{ column_name: string | null; comment: string }>;
  return new Map(rows.map((r) => [r.column_name ?? null, r.comment]));
}
