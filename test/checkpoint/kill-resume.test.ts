// kill -9 between steps, through compactCheckpointer: a process runs a tool (its effect is a
// line in a ledger), LangGraph finishes saving that step and starts the next model call, and
// the process is killed there; a second process on the same database resumes the thread (as
// a second server would). Whatever LangGraph was told is saved must be there: the tool ran
// once, and its result is in the resumed thread.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { testPostgres, uniqueSchema } from "../helpers/postgres.js";
import { startRacer } from "../security/exactly-once-processes.js";

const CHILD = fileURLToPath(new URL("./kill-resume-child.ts", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "delve-kill-"));
const pg = await testPostgres();
afterAll(() => {
  pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const databases: Array<[string, () => string]> = [
  ["SQLite", () => `sqlite:${join(dir, `k-${Math.random()}.db`)}`],
];
if (pg) databases.push(["PostgreSQL", () => `postgres:${uniqueSchema("kill")}:${pg.url}`]);
else console.warn("kill-resume: PostgreSQL cases skipped (no server, see above).");

const runs = (ledger: string) =>
  existsSync(ledger) ? readFileSync(ledger, "utf8").trim().split("\n").length : 0;

describe.each(databases)(
  "kill -9 after a saved step, resumed by another process (%s)",
  (_n, db) => {
    it("the tool that finished before the kill runs once, and its result survives", async () => {
      const saver = db();
      for (let trial = 0; trial < 2; trial += 1) {
        const ledger = join(dir, `ledger-${Math.random()}`);
        const thread = `t${trial}`;
        const first = startRacer(CHILD, ["run", saver, ledger, thread]);
        await first.printed("hung");
        first.child.kill("SIGKILL");
        await first.done;
        expect(runs(ledger)).toBe(1);
        const second = startRacer(CHILD, ["resume", saver, ledger, thread]);
        const messages: [string, string][] = await second.done;
        expect(runs(ledger)).toBe(1);
        expect(messages).toEqual([
          ["human", "record it"],
          ["ai", ""],
          ["tool", "recorded n1"],
          ["ai", "done"],
        ]);
      }
    }, 120_000);
  },
);
