import { type GlobOptions, type GlobResult, InMemoryBackend } from "delve";
import { describe, expect, it } from "vitest";
import { DEFAULT_GLOB_MAX_RESULTS } from "../../../src/backends/protocol/file-query.js";
import { fsTools, surfaceText, toolNamed } from "./fs-harness.js";

async function project() {
  const tools = fsTools();
  for (const path of [
    "/src/a.py",
    "/src/pkg/b.py",
    "/src/pkg/c.ts",
    "/top.py",
    "/docs/readme.md",
  ]) {
    await tools.backend.write(path, "x");
  }
  return tools;
}

describe("glob", () => {
  it("the model-facing text, with and without grep", () => {
    expect(surfaceText([toolNamed(fsTools().tools, "glob")])).toMatchInlineSnapshot(`
      "## glob
      Find files by path pattern: *.md matches names at any depth, src/**/*.ts matches under src, a leading / anchors at the root. Returns up to 1000 paths, sorted, and says when it stops early. To search contents, use grep.
      {"type":"object","properties":{"pattern":{"type":"string"},"path":{"type":"string","description":"Directory to search; default /"}},"required":["pattern"]}"
    `);
    const narrow = fsTools({ tools: ["read_file", "glob"] }).tools;
    expect(toolNamed(narrow, "glob").description).not.toContain("grep");
  });

  it("** inside a path matches at any depth under it", async () => {
    const { ok } = await project();
    expect(await ok("glob", { pattern: "src/**/*.py" })).toBe("/src/a.py\n/src/pkg/b.py");
    expect(await ok("glob", { pattern: "**/*.ts" })).toBe("/src/pkg/c.ts");
  });

  it("a basename pattern matches names at any depth; a leading / anchors at the root", async () => {
    const { ok } = await project();
    expect(await ok("glob", { pattern: "*.py" })).toBe("/src/a.py\n/src/pkg/b.py\n/top.py");
    expect(await ok("glob", { pattern: "/*.py" })).toBe("/top.py");
    expect(await ok("glob", { pattern: "readme.md" })).toBe("/docs/readme.md");
  });

  it("path narrows the search to a directory", async () => {
    const { ok } = await project();
    expect(await ok("glob", { pattern: "*.py", path: "/src/pkg" })).toBe("/src/pkg/b.py");
  });

  it("no match answers No files found", async () => {
    const { ok } = await project();
    expect(await ok("glob", { pattern: "*.rs" })).toBe("No files found");
    expect(await fsTools().ok("glob", { pattern: "**/*" })).toBe("No files found");
  });

  it("no match from a listing the backend cut short says the search was incomplete", async () => {
    class CutShort extends InMemoryBackend {
      override async glob(_pattern: string, _options?: GlobOptions): Promise<GlobResult> {
        return { files: [], truncated: true };
      }
    }
    expect(await fsTools({ backend: new CutShort() }).ok("glob", { pattern: "*.rs" })).toBe(
      "No files found, but the search was incomplete. Narrow the pattern or path.",
    );
  });

  it("braces, ranges and one-code-point ? follow the shell's reading", async () => {
    const { backend, ok } = fsTools();
    for (const path of ["/logs/2023.log", "/logs/2024.log", "/logs/2026.log", "/k/🔑.pem"]) {
      await backend.write(path, "x");
    }
    expect(await ok("glob", { pattern: "logs/{2023..2025}.log" })).toBe(
      "/logs/2023.log\n/logs/2024.log",
    );
    expect(await ok("glob", { pattern: "{logs/*6.log,k/?.pem}" })).toBe(
      "/k/🔑.pem\n/logs/2026.log",
    );
  });

  it("a pattern past the matcher's limits is an error naming the fix", async () => {
    const { fails } = await project();
    expect(await fails("glob", { pattern: "{a,b}".repeat(9) })).toMatch(
      /^Error: pattern "\{a,b\}.*" is refused: it expands to more than 256 patterns .*use a wildcard such as \*/,
    );
  });

  it("a search root that does not exist is an error, not an empty answer", async () => {
    const { fails } = await project();
    expect(await fails("glob", { pattern: "*.py", path: "/srcc" })).toBe(
      "Error: /srcc does not exist. Check the path with ls.",
    );
  });

  it(`stops at ${DEFAULT_GLOB_MAX_RESULTS} paths and says the list is incomplete`, async () => {
    const { backend, ok } = fsTools();
    const n = DEFAULT_GLOB_MAX_RESULTS + 5;
    for (let i = 0; i < n; i++) await backend.write(`/many/f${String(i).padStart(4, "0")}.md`, "x");
    const out = await ok("glob", { pattern: "*.md" });
    const [list, notice] = out.split("\n\n");
    expect(list!.split("\n")).toHaveLength(DEFAULT_GLOB_MAX_RESULTS);
    expect(notice).toBe(
      `[Stopped at ${DEFAULT_GLOB_MAX_RESULTS} paths: the list is incomplete. Narrow the pattern or path.]`,
    );
    const exact = await ok("glob", { pattern: "f0001.md" });
    expect(exact).toBe("/many/f0001.md");
  });

  it("hostile paths are error results, never exceptions", async () => {
    const { fails } = fsTools();
    for (const bad of ["../x", "~/x", "/a\0b"]) {
      expect(await fails("glob", { pattern: "*", path: bad })).toMatch(/^Error: invalid path /);
    }
  });
});
