import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { DEMO_CASSETTE, RECORD_COMMAND, replayDemo } from "../../examples/run-demo/demo.js";

// The README's offline demo ends with `delve run --replay` on a committed cassette: a change to
// the agent's prompts or tool descriptions that breaks it must fail here, saying how to fix it.

vi.setConfig({ testTimeout: 120_000 });

describe("npm run demo: delve run on the committed cassette", () => {
  it("replays offline with no key: the file is written, the answer printed, the thread shown", async () => {
    const { workspace, run, show } = await replayDemo();
    const fix = `the demo cassette ${DEMO_CASSETTE} no longer replays; re-record it with ${RECORD_COMMAND}.\n${run.stderr}`;
    expect(run.code, fix).toBe(0);
    expect(run.stdout.trim()).toBe(
      "SUMMARY.md says: Two items are left: retry failed uploads, and document the CLI.",
    );
    expect(run.stderr).toMatch(/^thread \S+ \(new\)/m);
    expect(fs.readFileSync(path.join(workspace, "SUMMARY.md"), "utf8")).toContain(
      "retry failed uploads",
    );
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain("write_file");
    expect(show.stdout).toContain("30 in / 15 out tokens");
  });
});
