import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// Test files that only call Delve in-process and leave no global state behind share their
// workers' module cache (importing langchain and Delve cost ~3 s per file otherwise). A file
// that registers profiles, mocks modules, stubs the environment or imports a sample for its
// side effects stays isolated; so does everything that spawns processes or servers.
const SHARED = [
  "test/agent/**/*.test.ts",
  "test/approval/**/*.test.ts",
  "test/backends/**/*.test.ts",
  "test/claims/**/*.test.ts",
  "test/context/**/*.test.ts",
  "test/deferral/**/*.test.ts",
  "test/docs/**/*.test.ts",
  "test/errors/**/*.test.ts",
  "test/evals/**/*.test.ts",
  "test/filesystem/**/*.test.ts",
  "test/langchain-seam/**/*.test.ts",
  "test/limits/**/*.test.ts",
  "test/models/**/*.test.ts",
  "test/permissions/**/*.test.ts",
  "test/schema/**/*.test.ts",
  "test/stores/**/*.test.ts",
  "test/subagents/**/*.test.ts",
  "test/surface/**/*.test.ts",
  "test/testing/**/*.test.ts",
  "test/toolkit/**/*.test.ts",
  "test/wire/**/*.test.ts",
];
const STATEFUL = [
  "test/docs/sample-runs.test.ts",
  "test/wire/strict.test.ts",
  "test/filesystem/execution-facts.test.ts",
  "test/permissions/agent-execute.test.ts",
  "test/approval/restart.test.ts",
  "test/toolkit/idempotent.test.ts",
  "test/backends/disk/local-shell.test.ts",
  "test/backends/sandbox/sandbox.test.ts",
];

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
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Vitest's default is one worker per core minus one: a single worker on two cores, idle
    // while a file waits on the processes and servers it started.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      {
        extends: true,
        test: { name: "shared", include: SHARED, exclude: STATEFUL, isolate: false },
      },
      {
        extends: true,
        test: {
          name: "isolated",
          include: ["src/**/*.test.ts", "test/**/*.test.ts", "examples/**/*.test.ts"],
          exclude: SHARED,
        },
      },
      { extends: true, test: { name: "isolated-stateful", include: STATEFUL } },
    ],
  },
});
