import { type GrepOptions, type GrepResult, InMemoryBackend } from "delve";
import { describe, expect, it } from "vitest";
import { DEFAULT_GREP_MAX_COUNT } from "../../../src/backends/protocol/file-query.js";
import { fsTools, surfaceText, toolNamed } from "./fs-harness.js";

async function project() {
  const tools = fsTools();
  await tools.backend.write("/src/a.py", "import os\nprint(1)\nprint(2)\n");
  await tools.backend.write("/src/pkg/b.py", "x = [1]\nprint(x)\n");
  await tools.backend.write("/src/pkg/c.ts", "console.log(x.*y)\n");
  await tools.backend.write("/notes.md", "print is a verb\n");
  return tools;
}

describe("grep", () => {
  it("the model-facing text", () => {
    expect(surfaceText([toolNamed(fsTools().tools, "grep")])).toMatchInlineSnapshot(`
      "## grep
      Search file contents for a literal string (not a regex). output_mode: files_with_matches (default, paths), content (path, then "n: text" lines), count (path: n). Narrow with path (a directory or file) and glob (a file-name filter, e.g. *.md). Stops at 1000 matches or the output limit and says so. To find files by name, use the glob tool.
      {"type":"object","properties":{"pattern":{"type":"string","minLength":1},"path":{"type":"string"},"glob":{"type":"string"},"output_mode":{"type":"string","enum":["files_with_matches","content","count"]}},"required":["pattern"]}"
    `);
  });

  it("defaults to files_with_matches: each matching path once, sorted", async () => {
    const { ok } = await project();
    expect(await ok("grep", { pattern: "print" })).toBe("/notes.md\n/src/a.py\n/src/pkg/b.py");
  });

  it("content mode gives each path once, then its line: text rows", async () => {
    const { ok } = await project();
    expect(await ok("grep", { pattern: "print(", output_mode: "content", path: "/src" })).toBe(
      "/src/a.py\n2: print(1)\n3: print(2)\n/src/pkg/b.py\n2: print(x)",
    );
  });

  it("count mode gives path: n", async () => {
    const { ok } = await project();
    expect(await ok("grep", { pattern: "print", output_mode: "count" })).toBe(
      "/notes.md: 1\n/src/a.py: 2\n/src/pkg/b.py: 1",
    );
  });

  it("the pattern is literal: regex characters match themselves", async () => {
    const { ok } = await project();
    expect(await ok("grep", { pattern: "[1]", output_mode: "content" })).toBe(
      "/src/pkg/b.py\n1: x = [1]",
    );
    expect(await ok("grep", { pattern: "x.*y", output_mode: "content" })).toBe(
      "/src/pkg/c.ts\n1: console.log(x.*y)",
    );
  });

  it("path narrows to a directory or one file; glob filters file names", async () => {
    const { ok } = await project();
    expect(await ok("grep", { pattern: "print", path: "/src/pkg" })).toBe("/src/pkg/b.py");
    expect(await ok("grep", { pattern: "print", path: "/src/a.py", output_mode: "count" })).toBe(
      "/src/a.py: 2",
    );
    expect(await ok("grep", { pattern: "print", glob: "*.py" })).toBe("/src/a.py\n/src/pkg/b.py");
    expect(await ok("grep", { pattern: "print", glob: "*.md" })).toBe("/notes.md");
    expect(await ok("grep", { pattern: "x", glob: "src/**/*.ts" })).toBe("/src/pkg/c.ts");
  });

  it("no match says No matches found, with a hint when the pattern looks like a regex", async () => {
    const { ok } = await project();
    expect(await ok("grep", { pattern: "absent words" })).toBe("No matches found.");
    const hint =
      "No matches found. The pattern is matched literally, not as a regex: search a plain substring.";
    for (const regexy of ["print\\(\\d\\)", "imp.*os", "^import", "os$", "a|b", "[0-9]+"]) {
      expect(await ok("grep", { pattern: regexy })).toBe(hint);
    }
  });

  it("a regex escape that finds nothing gets the unescaped literal to search instead", async () => {
    const { backend, ok } = fsTools();
    await backend.write("/billing.ts", "const total = lateFee(order) + tax;\n");
    expect(await ok("grep", { pattern: "lateFee\\(" })).toBe(
      'No matches found. The pattern is matched literally, not as a regex: search "lateFee(".',
    );
    expect(await ok("grep", { pattern: "lateFee(" })).toBe("/billing.ts");
    expect(await ok("grep", { pattern: "order\\) \\+ tax" })).toBe(
      'No matches found. The pattern is matched literally, not as a regex: search "order) + tax".',
    );
  });

  it("zero matches from a search the backend cut short say the search was incomplete", async () => {
    class CutShort extends InMemoryBackend {
      override async grep(_pattern: string, _options?: GrepOptions): Promise<GrepResult> {
        return { matches: [], truncated: true };
      }
    }
    const { ok } = fsTools({ backend: new CutShort() });
    expect(await ok("grep", { pattern: "x" })).toBe(
      "No matches found. The search was incomplete: narrow the path or the file filter.",
    );
  });

  it("a glob filter past the matcher's limits is an error naming the fix", async () => {
    const { fails } = await project();
    expect(await fails("grep", { pattern: "x", glob: "{1..5000}.py" })).toBe(
      'Error: glob "{1..5000}.py" is refused: it expands to more than 256 patterns (braces multiply); use a wildcard such as * or fewer alternatives.',
    );
  });

  it("a root that needs approval is refused naming the rule: grep never asks", async () => {
    const { backend, fails } = fsTools({
      permissions: [{ operations: ["read"], paths: ["/policies/**"], mode: "interrupt" }],
    });
    await backend.write("/policies/a.md", "refunds");
    expect(await fails("grep", { pattern: "refunds", path: "/policies" })).toBe(
      "Error: Permission denied: read of /policies needs human approval under rule 1 (interrupt read /policies/**).",
    );
  });

  it("a search path that does not exist is an error, not No matches found", async () => {
    const { fails } = await project();
    expect(await fails("grep", { pattern: "print", path: "/srcc" })).toBe(
      "Error: /srcc does not exist. Check the path with ls.",
    );
  });

  it(`stops at ${DEFAULT_GREP_MAX_COUNT} matches and says the result is incomplete and how to narrow it`, async () => {
    const { backend, ok } = fsTools();
    const lines = Array.from({ length: 700 }, (_, i) => `hit ${i}`).join("\n");
    await backend.write("/a.log", lines);
    await backend.write("/b.log", lines);
    const out = await ok("grep", { pattern: "hit", output_mode: "content" });
    const [body, notice] = out.split("\n\n");
    expect(body!.split("\n").filter((row) => !row.startsWith("/"))).toHaveLength(
      DEFAULT_GREP_MAX_COUNT,
    );
    expect(notice).toBe(
      `[Stopped at ${DEFAULT_GREP_MAX_COUNT} matches: the result is incomplete. Narrow the path or the file filter, or search a more specific string.]`,
    );
    expect(await ok("grep", { pattern: "hit", output_mode: "count" })).toBe(
      `/a.log: 700\n/b.log: 300\n\n[Stopped at ${DEFAULT_GREP_MAX_COUNT} matches: the result is incomplete. Narrow the path or the file filter, or search a more specific string.]`,
    );
    // Exactly at the cap is complete: no notice.
    const exact = fsTools();
    await exact.backend.write(
      "/c.log",
      Array.from({ length: DEFAULT_GREP_MAX_COUNT }, () => "hit").join("\n"),
    );
    expect(await exact.ok("grep", { pattern: "hit", output_mode: "count" })).toBe(
      `/c.log: ${DEFAULT_GREP_MAX_COUNT}`,
    );
  });

  it("hostile paths are error results, never exceptions", async () => {
    const { fails } = fsTools();
    for (const bad of ["../x", "~/x", "/a\0b"]) {
      expect(await fails("grep", { pattern: "x", path: bad })).toMatch(/^Error: invalid path /);
    }
  });
});
