import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const pkg = JSON.parse(readFileSync("package.json", "utf8")) as {
  peerDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const installed = (name: string): string =>
  (
    JSON.parse(readFileSync(join("node_modules", name, "package.json"), "utf8")) as {
      version: string;
    }
  ).version;

// The peers whose internals the seam reads, or whose behaviour Delve works around.
const NARROWED = [
  "langchain",
  "@langchain/core",
  "@langchain/langgraph",
  "@langchain/mcp-adapters",
];

describe("the versions the seam was checked against", () => {
  it.each(NARROWED)("%s: the peer range is the tested minor version, as installed", (name) => {
    const tested = pkg.devDependencies[name]!;
    const [major, minor] = tested.split(".");
    expect(pkg.peerDependencies[name], `${name} peer range`).toBe(`~${tested}`);
    expect(
      installed(name).startsWith(`${major}.${minor}.`),
      `${name} installed ${installed(name)}`,
    ).toBe(true);
  });

  it("every version a seam header names is the one installed", () => {
    const dir = "src/langchain-seam";
    for (const file of readdirSync(dir).filter((f) => f !== "index.ts")) {
      const header = readFileSync(join(dir, file), "utf8").split("\n").slice(0, 12).join(" ");
      const checked = header.slice(header.indexOf("Checked against:")).replace(/\s*\/\/\s*/g, " ");
      const pairs = [...checked.matchAll(/((?:@langchain\/)?[a-z][\w-]*) (\d+\.\d+\.\d+)/g)];
      expect(pairs.length, file).toBeGreaterThan(0);
      for (const [, name, version] of pairs) {
        expect(`${name} ${installed(name!)}`, `${file}: re-check it, then update its header`).toBe(
          `${name} ${version}`,
        );
      }
    }
  });
});
