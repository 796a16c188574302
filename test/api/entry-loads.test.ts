import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { publicEntries } from "./entries.js";

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "delve-loads-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// What Node really loads for `import <entry>`: a fresh process (tsx for the TypeScript
// sources) with a loader hook that records every module URL.
async function modulesLoadedBy(specifier: string): Promise<string[]> {
  const entry = publicEntries().find((e) => e.specifier === specifier);
  if (!entry) throw new Error(`no public entry ${specifier}`);
  const log = join(dir, `${specifier.replace(/\W/g, "_")}.log`);
  const url = new URL(`file://${resolve(entry.source)}`).href;
  await run(
    process.execPath,
    [
      "--import",
      "tsx",
      "--import",
      "./test/api/load-recorder.mjs",
      "--input-type=module",
      "-e",
      `await import(${JSON.stringify(url)})`,
    ],
    { env: { ...process.env, DELVE_LOAD_LOG: log } },
  );
  const root = new URL(`file://${resolve(".")}/`).href;
  return readFileSync(log, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((u) => (u.startsWith(root) ? u.slice(root.length) : u));
}

const [root, mcp, backend] = await Promise.all(
  ["delve", "delve/mcp", "delve/backend"].map(modulesLoadedBy),
);
const inFolder = (loaded: string[], folder: string) => loaded.filter((m) => m.startsWith(folder));
const fromPackage = (loaded: string[], pkg: string) =>
  loaded.filter((m) => m.includes(`/node_modules/${pkg}/`));

describe("what each entry loads", () => {
  it("the recorder sees the entry and the agent assembly behind `delve`", () => {
    expect(root).toContain("src/index.ts");
    expect(root).toContain("src/agent/assemble.ts");
  });

  it('import "delve" loads no module of src/mcp/ and not the MCP SDK or adapters', () => {
    expect(inFolder(root, "src/mcp/")).toEqual([]);
    expect(fromPackage(root, "@modelcontextprotocol/sdk")).toEqual([]);
    expect(fromPackage(root, "@langchain/mcp-adapters")).toEqual([]);
  });

  it('import "delve" loads neither the test helpers (vitest) nor the SQLite store', () => {
    expect(inFolder(root, "src/testing/")).toEqual([]);
    // The claim table (approvals, idempotent()) is dependency-free and rides on the saver's
    // own database handle (src/claims/); the SQLite store itself stays behind delve/sqlite.
    expect(inFolder(root, "src/stores/")).toEqual([]);
    expect(fromPackage(root, "vitest")).toEqual([]);
    expect(fromPackage(root, "better-sqlite3")).toEqual([]);
  });

  it('import "delve/mcp" loads no agent assembly: only the shared built-in names', () => {
    expect(mcp).toContain("src/mcp/index.ts");
    expect(mcp).not.toContain("src/agent/assemble.ts");
    expect(inFolder(mcp, "src/agent/")).toEqual(["src/agent/builtin-names.ts"]);
  });

  it('import "delve/backend" loads no agent code and not the langchain package', () => {
    expect(backend).toContain("src/backends/index.ts");
    expect(inFolder(backend, "src/agent/")).toEqual([]);
    expect(fromPackage(backend, "langchain")).toEqual([]);
  });
});
