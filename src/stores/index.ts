// The `delve/sqlite` entry: a LangGraph store on SQLite (needs better-sqlite3). Every name here
// is public API.

export { SqliteStore, type SqliteStoreOptions } from "./sqlite-store.js";
