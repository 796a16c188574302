import { createDeepAgent } from "delve";
import { SqliteStore } from "delve/sqlite";
import { model } from "./fixtures.js";

const store = SqliteStore.open(".delve/store.db"); // = new SqliteStore({ path: ".delve/store.db" })
export const agent = createDeepAgent({ model, store }); // StoreBackend without `store` uses this one
// ... store.close() when done
