import { describe, expect, it } from "vitest";
import { fsTools, surfaceText, toolNamed } from "./fs-harness.js";

const STAMP = "\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d";

describe("ls", () => {
  it("the model-facing text, with and without glob to point at", () => {
    const { tools } = fsTools();
    expect(surfaceText([toolNamed(tools, "ls")])).toMatchInlineSnapshot(`
      "## ls
      List one directory: a line per entry with size and modified time; directories end with /. To find files by name across directories, use glob.
      {"type":"object","properties":{"path":{"type":"string","description":"Absolute directory, e.g. /"}},"required":["path"]}"
    `);
    const narrow = fsTools({ tools: ["ls", "read_file"] }).tools;
    expect(surfaceText([toolNamed(narrow, "ls")])).toMatchInlineSnapshot(`
      "## ls
      List one directory: a line per entry with size and modified time; directories end with /.
      {"type":"object","properties":{"path":{"type":"string","description":"Absolute directory, e.g. /"}},"required":["path"]}"
    `);
  });

  it("lists one directory sorted: files with size and time, directories bare ending with /", async () => {
    const { backend, ok } = fsTools();
    await backend.write("/b.md", "hello");
    await backend.write("/a/x.md", "x");
    await backend.write("/a/deep/y.md", "y");
    const rows = (await ok("ls", { path: "/" })).split("\n");
    expect(rows).toHaveLength(2);
    expect(rows[0]).toBe("/a/");
    expect(rows[1]).toMatch(new RegExp(`^/b\\.md  5 B  ${STAMP}$`));
    const sub = (await ok("ls", { path: "/a" })).split("\n");
    expect(sub[0]).toBe("/a/deep/");
    expect(sub[1]).toMatch(new RegExp(`^/a/x\\.md  1 B  ${STAMP}$`));
  });

  it("an empty root answers No files found", async () => {
    const { ok } = fsTools();
    expect(await ok("ls", { path: "/" })).toBe("No files found");
  });

  it("a missing directory is an error result naming the path", async () => {
    const { fails } = fsTools();
    expect(await fails("ls", { path: "/nowhere" })).toBe(
      "Error: /nowhere does not exist. Check the path with glob.",
    );
  });

  it("a file is an error result: ls lists directories", async () => {
    const { backend, fails } = fsTools();
    await backend.write("/a.md", "x");
    expect(await fails("ls", { path: "/a.md" })).toBe("Error: /a.md is a file, not a directory.");
  });

  it("relative and messy paths are normalised from /", async () => {
    const { backend, ok } = fsTools();
    await backend.write("/a/x.md", "x");
    expect(await ok("ls", { path: "a//" })).toMatch(/^\/a\/x\.md {2}1 B/);
  });

  it("hostile paths are error results, never exceptions", async () => {
    const { fails } = fsTools();
    expect(await fails("ls", { path: "../x" })).toBe(
      'Error: invalid path "../x": path traversal (..) is not allowed. Use an absolute path like /notes/a.md.',
    );
    expect(await fails("ls", { path: "~/x" })).toContain("home-directory paths (~)");
    expect(await fails("ls", { path: "/a\0b" })).toContain("NUL byte");
  });
});
