import fs from "node:fs";
import path from "node:path";
import { ConfigurationError } from "../errors/configuration-error.js";

/**
 * Read-modify-write of a JSON config file that neither a crash nor a second writer can
 * corrupt: an exclusive lock file serialises writers, the new text goes to a temporary file
 * in the same folder, and a rename swaps it in, so a reader sees the old file or the new one.
 */

const LOCK_WAIT_MS = 5000;
const STALE_LOCK_MS = 30_000;

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function acquire(lock: string): number {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      return fs.openSync(lock, "wx");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      try {
        // A writer killed while holding the lock leaves it behind: break it once it is old.
        if (Date.now() - fs.statSync(lock).mtimeMs > STALE_LOCK_MS)
          fs.rmSync(lock, { force: true });
      } catch {}
      if (Date.now() > deadline)
        throw new ConfigurationError(
          "INVALID_CONFIG",
          `${lock} has been held for ${LOCK_WAIT_MS / 1000} s by another delve process. Wait for it, or delete the lock file if no delve is running.`,
          { file: lock },
        );
      sleep(10 + Math.random() * 20);
    }
  }
}

/**
 * Applies `update` to the parsed content of `file` (undefined when it does not exist) and
 * writes the result, unless `update` returns undefined (nothing to change).
 */
export function writeConfigAtomically(
  file: string,
  update: (current: unknown) => Record<string, unknown> | undefined,
): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const lock = `${file}.lock`;
  const fd = acquire(lock);
  try {
    let current: unknown;
    try {
      current = JSON.parse(fs.readFileSync(file, "utf8"));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT")
        throw new ConfigurationError(
          "INVALID_CONFIG",
          `${file} cannot be updated: ${(error as Error).message}. Fix or delete it.`,
          { file },
        );
    }
    const next = update(current);
    if (next === undefined) return;
    const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
    try {
      fs.writeFileSync(temp, `${JSON.stringify(next, null, 2)}\n`, { flag: "wx" });
      fs.renameSync(temp, file);
    } finally {
      fs.rmSync(temp, { force: true });
    }
  } finally {
    fs.closeSync(fd);
    fs.rmSync(lock, { force: true });
  }
}
