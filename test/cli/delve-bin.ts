import fs from "node:fs";
import { fileURLToPath } from "node:url";

/** The repository root, where the CLI runs in these tests. */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * The `delve` entry the CLI tests run, with node's tsx loader so TypeScript task sets load:
 * in CI (which builds first) the real built binary, dist/cli/main.js; elsewhere the source.
 */
export const CLI_ENTRY =
  process.env.CI && fs.existsSync(`${ROOT}dist/cli/main.js`)
    ? "dist/cli/main.js"
    : "src/cli/main.ts";
