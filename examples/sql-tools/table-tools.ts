import { type StructuredToolInterface, tool } from "@langchain/core/tools";
import type Database from "better-sqlite3";
import { ConfigurationError, fail, ok } from "delve";
import {
  type ColumnSpec,
  quoteIdent,
  readTable,
  schemaVersion,
  type TableSpec,
  tableNames,
} from "./table-schema.js";

/** Rows a query may return at most, whatever the model asks. */
export const MAX_ROWS = 50;
/** Rows per page when the model gives no limit. */
export const DEFAULT_ROWS = 20;

/** Options of `createTableTools`. */
export interface TableToolsOptions {
  /** The tables to expose, in order. Default: every user table, by name. */
  tables?: string[];
  /** At most this many tables get a tool; the rest are listed in `omitted`. Default 8. */
  maxTables?: number;
  /** What each table holds, for its description; overrides the comments table. */
  purposes?: Record<string, string>;
  /** A table `(table_name, column_name, comment)` of comments. Default `_comments`. */
  commentsTable?: string;
}

/** The generated tools and what they were built from. */
export interface TableCatalog {
  /** One read-only `query_<table>` tool per exposed table (the current generation). */
  readonly tools: StructuredToolInterface[];
  /** Tables left out by the `maxTables` cap. */
  readonly omitted: string[];
  /** The SQLite schema version the tools were built at. */
  readonly schemaVersion: number;
  /** Rebuilds the tools when the schema changed since; returns whether it did. */
  refresh(): boolean;
}

/**
 * Builds one read-only query tool per table of a SQLite database (seed 004 §6): typed
 * parameters instead of SQL (columns as enums for `select` and `order_by`, equality filters
 * typed by column, `limit` capped at 50, pages with `total`), descriptions that list the
 * columns, a cap on how many tables are exposed, and `refresh()` to regenerate after the
 * schema changes. Values are always bound parameters; identifiers come from the schema.
 * Open the database read-only: `new Database(path, { readonly: true })`.
 *
 * @example
 * const catalog = createTableTools(new Database("shop.db", { readonly: true }), { maxTables: 5 });
 * const agent = createDeepAgent({ model, tools: catalog.tools });
 * // after a migration: if (catalog.refresh()) rebuild the agent with catalog.tools
 */
export function createTableTools(
  db: Database.Database,
  options: TableToolsOptions = {},
): TableCatalog {
  const commentsTable = options.commentsTable ?? "_comments";
  const maxTables = options.maxTables ?? 8;
  if (!Number.isInteger(maxTables) || maxTables < 1) {
    throw new ConfigurationError(
      "INVALID_OPTION",
      "createTableTools: maxTables must be a positive integer.",
    );
  }
  let built = build();

  function build() {
    const version = schemaVersion(db);
    const existing = tableNames(db, commentsTable);
    const wanted = options.tables ?? existing;
    const missing = wanted.filter((t) => !existing.includes(t));
    if (missing.length) {
      throw new ConfigurationError(
        "INVALID_OPTION",
        `createTableTools: no table ${missing.join(", ")} in the database.`,
        { missing },
      );
    }
    const exposed = wanted.slice(0, maxTables);
    const specs = exposed.map((t) => readTable(db, t, commentsTable, options.purposes?.[t]));
    const names = toolNames(exposed);
    return {
      version,
      omitted: wanted.slice(maxTables),
      tools: specs.map((spec, i) => tableTool(db, spec, names[i]!, version)),
    };
  }

  return {
    get tools() {
      return built.tools;
    },
    get omitted() {
      return built.omitted;
    },
    get schemaVersion() {
      return built.version;
    },
    refresh() {
      if (schemaVersion(db) === built.version) return false;
      built = build();
      return true;
    },
  };
}

// query_<table>, made a valid tool name; a clash gets a numeric suffix.
function toolNames(tables: string[]): string[] {
  const used = new Set<string>();
  return tables.map((table) => {
    const base = `query_${table.toLowerCase().replace(/[^a-z0-9_]+/g, "_")}`.slice(0, 60);
    let name = base;
    for (let n = 2; used.has(name); n++) name = `${base}_${n}`;
    used.add(name);
    return name;
  });
}

interface QueryArgs {
  select?: string[];
  where?: Record<string, string | number>;
  order_by?: string;
  descending?: boolean;
  page?: number;
  limit?: number;
}

/**
 * The tool for one table. A factory per table, so each tool's closure holds its own table:
 * a loop of inline closures is where seed 004's late-binding bug lives.
 */
function tableTool(
  db: Database.Database,
  spec: TableSpec,
  name: string,
  version: number,
): StructuredToolInterface {
  const columns = spec.columns.filter((c) => c.kind !== "blob");
  const columnNames = columns.map((c) => c.name);
  const table = quoteIdent(spec.name);
  const run = async (args: QueryArgs) => {
    const select = args.select?.length ? [...new Set(args.select)] : columnNames;
    const filters = Object.entries(args.where ?? {});
    // The schema already limits names to known columns; check again before building SQL.
    const unknown = [
      ...select,
      ...filters.map(([c]) => c),
      args.order_by ?? columnNames[0]!,
    ].filter((c) => !columnNames.includes(c));
    if (unknown.length) {
      return fail({
        code: "UNKNOWN_COLUMN",
        message: `${spec.name} has no column ${unknown.join(", ")}.`,
        hint: `Columns: ${columnNames.join(", ")}.`,
      });
    }
    const where = filters.length
      ? ` WHERE ${filters.map(([c]) => `${quoteIdent(c)} = ?`).join(" AND ")}`
      : "";
    const values = filters.map(([, v]) => v);
    const limit = Math.min(args.limit ?? DEFAULT_ROWS, MAX_ROWS);
    const page = args.page ?? 1;
    try {
      const total = (
        db.prepare(`SELECT COUNT(*) AS n FROM ${table}${where}`).get(...values) as { n: number }
      ).n;
      const pages = Math.max(1, Math.ceil(total / limit));
      if (page > pages) {
        return fail({
          code: "OUT_OF_RANGE",
          message: `page ${page} is past the end: ${total} rows make ${pages} page(s) of ${limit}.`,
          hint: `Ask for a page from 1 to ${pages}.`,
        });
      }
      const order = ` ORDER BY ${quoteIdent(args.order_by ?? columnNames[0]!)} ${args.descending ? "DESC" : "ASC"}`;
      const statement = db.prepare(
        `SELECT ${select.map(quoteIdent).join(", ")} FROM ${table}${where}${order} LIMIT ? OFFSET ?`,
      );
      if (!statement.readonly) throw new Error("refusing a statement that writes");
      const items = statement.all(...values, limit, (page - 1) * limit);
      return ok({ table: spec.name, total, page, pages, items });
    } catch (error) {
      // The table changed under a tool built before the change (a dropped column or table).
      if (schemaVersion(db) !== version) {
        return fail({
          code: "SCHEMA_CHANGED",
          message: `${spec.name} changed since this tool was built: ${(error as Error).message}.`,
          hint: "Tell the user the table's structure changed; the tools must be regenerated before querying it again.",
        });
      }
      throw error;
    }
  };
  return tool(
    run as any,
    {
      name,
      description: describeTable(spec, columns, name),
      schema: querySchema(columns),
    } as any,
  ) as unknown as StructuredToolInterface;
}

function describeTable(spec: TableSpec, columns: ColumnSpec[], name: string): string {
  const listed = columns.map((c) => {
    const facts = [
      c.declared,
      c.primaryKey ? "primary key" : "",
      c.values ? `one of ${c.values.join(", ")}` : "",
    ];
    const comment = c.comment ? `: ${c.comment}` : "";
    return `${c.name} (${facts.filter(Boolean).join(", ")})${comment}`;
  });
  const purpose = spec.purpose ? `: ${spec.purpose.replace(/\.$/, "")}` : "";
  return [
    `Read rows of the ${spec.name} table${purpose}.`,
    `Columns: ${listed.join("; ")}.`,
    `Filter with where (equality on columns, all must match), pick columns with select, sort with order_by, page with page and limit (at most ${MAX_ROWS} rows, default ${DEFAULT_ROWS}).`,
    `Returns {"ok":true,"total","page","pages","items"}. Read-only: it never changes data. Not for other tables: each has its own query_ tool (this one is ${name}).`,
  ].join(" ");
}

function querySchema(columns: ColumnSpec[]) {
  const names = columns.map((c) => c.name);
  // No per-filter descriptions: the tool description already lists every column.
  const filters = Object.fromEntries(
    columns.map((c) => [c.name, { type: c.kind, ...(c.values ? { enum: c.values } : {}) }]),
  );
  return {
    type: "object",
    properties: {
      select: {
        type: "array",
        items: { type: "string", enum: names },
        description: "Columns to return; default all",
      },
      where: {
        type: "object",
        properties: filters,
        additionalProperties: false,
        description: "Equality filters by column; all must match",
      },
      order_by: { type: "string", enum: names, description: `Sort column; default ${names[0]}` },
      descending: { type: "boolean", description: "Sort from largest to smallest" },
      page: { type: "integer", minimum: 1, description: "1-based page number; default 1" },
      limit: {
        type: "integer",
        minimum: 1,
        maximum: MAX_ROWS,
        description: `Rows per page, at most ${MAX_ROWS}; default ${DEFAULT_ROWS}`,
      },
    },
    additionalProperties: false,
  };
}
