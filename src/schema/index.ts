// Delve's own database schema, one module per database: the tables each part of Delve creates
// in a SQLite file or a PostgreSQL schema, their versions and migrations. Internal to Delve.
// Every table Delve creates is created here: claims (delve_claims), SqliteStore's items
// (store_items) and compactCheckpointer's chunks (delve_chunks, delve_chunk_refs,
// delve_checkpoint_channels, delve_task_paths).
export {
  ensurePostgresSchema,
  POSTGRES_SCHEMA_VERSIONS,
  type PostgresPart,
  quotedSchema,
} from "./postgres.js";
export { ensureSqliteSchema, SQLITE_SCHEMA_VERSIONS, type SqlitePart } from "./sqlite.js";
