import { CompositeBackend, createDeepAgent, SandboxBackend, StoreBackend } from "delve";
import { SqliteStore } from "delve/sqlite";
import { model } from "./fixtures.js";

const backend = new CompositeBackend({
  default: new SandboxBackend({ rootDir: "/srv/agent-workspace", timeout: 60 }),
  routes: {
    "/memories/": new StoreBackend({
      namespace: (ctx) => ["memories", ctx.user?.id ?? "local"], // user is undefined locally
      store: SqliteStore.open("./agent-store.db"),
    }),
  },
});
export const agent = createDeepAgent({ model, backend });
