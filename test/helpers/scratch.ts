import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { type TestPostgres, testPostgres } from "./postgres.js";

/**
 * A temp dir and a PostgreSQL server (undefined when none can be had) for one test file,
 * both cleaned up after it, with `closers` run first (savers to end).
 *
 * @example
 * const { dir, pg, closers } = await scratch("delve-two-");
 */
export async function scratch(prefix: string): Promise<{
  dir: string;
  pg: TestPostgres | undefined;
  closers: Array<() => Promise<void>>;
}> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const pg = await testPostgres();
  const closers: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const close of closers) await close();
    pg?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir, pg, closers };
}
