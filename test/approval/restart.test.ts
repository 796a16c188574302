import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const script = fileURLToPath(new URL("./restart-run.ts", import.meta.url));
const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

function runProcess(db: string, ledger: string, phase: "start" | "resume") {
  const stdout = execFileSync(process.execPath, ["--import", "tsx", script, db, ledger, phase], {
    encoding: "utf8",
    timeout: 60_000,
  });
  return JSON.parse(stdout.trim().split("\n").at(-1)!);
}

describe("approval across a process restart", () => {
  it("process 1 pauses and exits; process 2 reads the pending approval, resumes from SQLite and the tool runs once", async () => {
    const dir = await mkdtemp(join(tmpdir(), "delve-approval-"));
    dirs.push(dir);
    const db = join(dir, "checkpoints.db");
    const ledger = join(dir, "ledger.txt");

    const first = runProcess(db, ledger, "start");
    expect(first.request.actionRequests).toEqual([
      {
        name: "delete_order",
        args: { order_id: "ORD-7" },
        description: "delete_order needs approval before it runs.",
      },
    ]);
    await expect(readFile(ledger, "utf8")).rejects.toThrow(/ENOENT/);

    const second = runProcess(db, ledger, "resume");
    // The new process read the pending approval from SQLite, typed, before resuming it.
    expect(second.pending).toEqual([
      {
        interruptId: expect.any(String),
        calls: [
          {
            id: "d7",
            name: "delete_order",
            args: { order_id: "ORD-7" },
            description: "delete_order needs approval before it runs.",
            allowedDecisions: ["approve", "edit", "reject"],
          },
        ],
      },
    ]);
    expect(second.request).toBeUndefined();
    expect(second.results).toEqual(['{"ok":true,"deleted":"ORD-7"}']);
    expect(second.answer).toBe('Done: {"ok":true,"deleted":"ORD-7"}');
    const lines = (await readFile(ledger, "utf8")).trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/delete_order ORD-7$/);
  });
});
