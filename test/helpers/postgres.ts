import { execFile, execFileSync, spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
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
 * A real PostgreSQL server for the tests. Uses `DELVE_PG_URL` when set (CI starts one with
 * `.ci/postgres.sh`); otherwise, under vitest, one throwaway server per vitest run, started
 * by the first file that asks and shared by the others (a server start costs seconds; the
 * tests keep apart by schema or database), stopped when the run's main process is gone.
 * Outside vitest, a private server stopped by `stop()` or at exit. When none can be had the
 * tests must not pass silently: with `CI=true` this throws, otherwise it prints why and
 * returns undefined so the caller can skip.
 *
 * @example
 * const pg = await testPostgres();
 * afterAll(() => pg?.stop());
 * describe.skipIf(!pg)("on PostgreSQL", () => { ... });
 */
export async function testPostgres(): Promise<TestPostgres | undefined> {
  const fromEnv = process.env.DELVE_PG_URL?.trim();
  if (fromEnv) return { url: fromEnv, stop: () => {} };
  try {
    if (process.env.VITEST) return { url: await sharedServer(), stop: () => {} };
    return await privateServer();
  } catch (error) {
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

async function startCluster(urlFile: string): Promise<{ url: string; clusterDir: string }> {
  const { stdout } = await promisify(execFile)("bash", [SCRIPT], {
    env: { ...process.env, DELVE_PG_URL_FILE: urlFile },
    timeout: 120_000,
  });
  const url = stdout.trim().split("\n").pop() ?? "";
  if (!url.startsWith("postgresql://")) throw new Error(`unexpected output: ${stdout}`);
  return { url, clusterDir: readFileSync(`${urlFile}.dir`, "utf8").trim() };
}

async function privateServer(): Promise<TestPostgres> {
  const scratch = mkdtempSync(join(tmpdir(), "delve-pg-url-"));
  try {
    const { url, clusterDir } = await startCluster(join(scratch, "url"));
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
    throw error;
  }
}

// The run's folder is named after vitest's main process (every test worker's parent): the
// first worker to create it starts the server; the others wait for its "ready" file.
async function sharedServer(): Promise<string> {
  const dir = join(tmpdir(), `delve-pg-run-${process.ppid}`);
  const ready = join(dir, "ready");
  const failed = join(dir, "failed");
  let starter = true;
  try {
    mkdirSync(dir);
  } catch {
    starter = false;
  }
  if (starter) {
    try {
      const { url, clusterDir } = await startCluster(join(dir, "url"));
      // Stops the server once vitest's main process has exited, however it ended.
      spawn(
        "bash",
        [
          "-c",
          'while kill -0 "$0" 2>/dev/null; do sleep 1; done; bash "$1" stop "$2" >/dev/null 2>&1; rm -rf "$3"',
          String(process.ppid),
          SCRIPT,
          clusterDir,
          dir,
        ],
        { detached: true, stdio: "ignore" },
      ).unref();
      writeFileSync(`${ready}.tmp`, url);
      renameSync(`${ready}.tmp`, ready);
      return url;
    } catch (error) {
      writeFileSync(failed, (error as { stderr?: string }).stderr || (error as Error).message);
      throw error;
    }
  }
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (existsSync(ready)) return readFileSync(ready, "utf8").trim();
    if (existsSync(failed)) throw new Error(readFileSync(failed, "utf8"));
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the shared server of this run (${dir}) was not ready after 180 s`);
}

/** A schema name unique to one test, so tests sharing a server never see each other's rows. */
export function uniqueSchema(prefix = "t"): string {
  return `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}
