import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^delve\/testing$/, replacement: here("./src/testing/index.ts") },
      { find: /^delve\/sqlite$/, replacement: here("./src/stores/index.ts") },
      { find: /^delve\/evals$/, replacement: here("./src/evals/index.ts") },
      { find: /^delve\/mcp$/, replacement: here("./src/mcp/index.ts") },
      { find: /^delve\/backend$/, replacement: here("./src/backends/index.ts") },
      { find: /^delve\/checkpoint$/, replacement: here("./src/checkpoint/index.ts") },
      { find: /^delve$/, replacement: here("./src/index.ts") },
    ],
  },
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts", "examples/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
