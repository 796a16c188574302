import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { CLI_ARGV, ROOT } from "./delve-bin.js";

describe("delve surface", () => {
  it("prints deferred tools apart, with the index size and the total without deferral", () => {
    const out = spawnSync(
      process.execPath,
      [...CLI_ARGV, "surface", "test/cli/fixtures/deferred-agent.ts"],
      { cwd: ROOT, encoding: "utf8", timeout: 90_000 },
    );
    expect(out.status).toBe(0);
    expect(out.stdout).toMatch(/^visible {4}\(9\): .*search_tools/m);
    expect(out.stdout).toMatch(/^deferred {3}\(12\): crm_get_account, billing_get_invoice/m);
    expect(out.stdout).toMatch(
      /^ {2}index \d+ chars ~\d+ tokens \(in search_tools\); without deferral: total \d+ chars, ~\d+ tokens$/m,
    );
    expect(out.stdout).not.toMatch(/^hidden: crm_get_account/m);
  });
});
