import { readFileSync } from "node:fs";
import { MIDDLEWARE_ORDER } from "delve";
import { describe, expect, it } from "vitest";

describe("docs/agent.md states the middleware order of MIDDLEWARE_ORDER", () => {
  it("its table lists every slot, in order, with the same condition", () => {
    const page = readFileSync(new URL("../../docs/agent.md", import.meta.url), "utf8");
    const rows = page
      .split("\n")
      .filter((line) => /^\| \d+ \| /.test(line))
      .map((line) => line.split(" | ").map((cell) => cell.replace(/^\| |\s\|$/g, "").trim()));
    expect(rows.map((r) => r[1]!.replace(/^`(.+)` \(option\)$/, "$1"))).toEqual(
      MIDDLEWARE_ORDER.map((s) => s.name),
    );
    expect(rows.map((r) => r[2])).toEqual(MIDDLEWARE_ORDER.map((s) => s.when));
  });
});
