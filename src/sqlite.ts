export { SqliteStore, type SqliteStoreOptions } from "./stores/sqlite-store.js";
