import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root, where the CLI runs in these tests. */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * The `delve` entry the CLI tests run: in CI (which builds first) the real built binary,
 * dist/cli/main.js; elsewhere the source.
 */
export const CLI_ENTRY =
  process.env.CI && fs.existsSync(`${ROOT}dist/cli/main.js`)
    ? "dist/cli/main.js"
    : "src/cli/main.ts";

/**
 * node's arguments that start `delve`: the source needs tsx's loader; the built binary runs
 * as a user runs it, without one (it registers tsx itself for a TypeScript --agent or task
 * set). The loader hooks every module load: it doubles a spawn's start-up (1.2 s to 2.8 s
 * for `delve threads list`).
 */
export const CLI_ARGV: readonly string[] = CLI_ENTRY.endsWith(".ts")
  ? ["--import", import.meta.resolve("tsx"), path.join(ROOT, CLI_ENTRY)]
  : [path.join(ROOT, CLI_ENTRY)];
