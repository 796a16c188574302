import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";

/** A PostgreSQL server for tests: its URL, and `stop()` (a no-op unless we started it). */
export interface TestPostgres {
  url: string;
  stop(): void;
}

const SCRIPT = resolve(import.meta.dirname, "../../.ci/postgres.sh");

/**
 * A real PostgreSQL server for the tests of this file. Uses `DELVE_PG_URL` when set (CI
 * starts one with `.ci/postgres.sh`); otherwise starts a private throwaway server with that
 * script (stopped by `stop()` or at exit). When none can be had the tests must not pass
 * silently: with `CI=true` this throws, otherwise it prints why and returns undefined so the
 * caller can skip.
 *
 * @example
 * const pg = await testPostgres();
 * afterAll(() => pg?.stop());
 * describe.skipIf(!pg)("on PostgreSQL", () => { ... });
 */
export async function testPostgres(): Promise<TestPostgres | undefined> {
  const fromEnv = process.env.DELVE_PG_URL?.trim();
  if (fromEnv) return { url: fromEnv, stop: () => {} };
  const scratch = mkdtempSync(join(tmpdir(), "delve-pg-url-"));
  const urlFile = join(scratch, "url");
  try {
    const { stdout } = await promisify(execFile)("bash", [SCRIPT], {
      env: { ...process.env, DELVE_PG_URL_FILE: urlFile },
      timeout: 60_000,
    });
    const url = stdout.trim().split("\n").pop() ?? "";
    if (!url.startsWith("postgresql://")) throw new Error(`unexpected output: ${stdout}`);
    const clusterDir = readFileSync(`${urlFile}.dir`, "utf8").trim();
    let stopped = false;
    const stop = () => {
      if (stopped) return;
      stopped = true;
      try {
        execFileSync("bash", [SCRIPT, "stop", clusterDir], { stdio: "ignore", timeout: 30_000 });
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
    };
    // A crashed or interrupted run must not leave a server behind.
    process.once("exit", stop);
    return { url, stop };
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    const detail = (error as { stderr?: string }).stderr?.trim() || (error as Error).message;
    const reason = `no PostgreSQL server: DELVE_PG_URL is unset and .ci/postgres.sh failed (${detail.split("\n").slice(-3).join(" | ")})`;
    if (process.env.CI === "true") {
      throw new Error(
        `${reason}. CI must run the PostgreSQL tests: install postgresql and start it with .ci/postgres.sh.`,
      );
    }
    console.warn(
      `Skipping PostgreSQL tests: ${reason}. Install postgresql (apt-get install postgresql) to run them.`,
    );
    return undefined;
  }
}

/** A schema name unique to one test, so tests sharing a server never see each other's rows. */
export function uniqueSchema(prefix = "t"): string {
  return `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}
