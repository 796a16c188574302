import { describe, expect, it } from "vitest";
import { contentOf, fsTools, surfaceText, toolNamed } from "./fs-harness.js";

describe("write_file", () => {
  it("the model-facing text, with and without edit_file", () => {
    expect(surfaceText([toolNamed(fsTools().tools, "write_file")])).toMatchInlineSnapshot(`
      "## write_file
      Create a file, or overwrite an existing one with the full new content. Parent directories are created. To change part of a file, use edit_file.
      {"type":"object","properties":{"file_path":{"type":"string"},"content":{"type":"string"}},"required":["file_path","content"]}"
    `);
    const narrow = fsTools({ tools: ["read_file", "write_file"] }).tools;
    expect(toolNamed(narrow, "write_file").description).toBe(
      "Create a file, or overwrite an existing one with the full new content. Parent directories are created.",
    );
  });

  it("creating a file says Wrote with its line count, parents included", async () => {
    const { backend, ok } = fsTools();
    expect(await ok("write_file", { file_path: "/notes/brief.md", content: "# Brief\nok\n" })).toBe(
      "Wrote /notes/brief.md (2 lines).",
    );
    expect(await contentOf(backend, "/notes/brief.md")).toBe("# Brief\nok\n");
    expect((await backend.ls("/notes")).files?.map((f) => f.path)).toEqual(["/notes/brief.md"]);
    expect(await ok("write_file", { file_path: "/one.txt", content: "x" })).toBe(
      "Wrote /one.txt (1 line).",
    );
  });

  it("overwriting replaces the whole file and says the old content is gone", async () => {
    const { backend, ok } = fsTools();
    await backend.write("/a.md", "old\nold\nold\n");
    expect(await ok("write_file", { file_path: "/a.md", content: "new\n" })).toBe(
      "Overwrote /a.md (1 line); its previous content is gone.",
    );
    expect(await contentOf(backend, "/a.md")).toBe("new\n");
  });

  it("a relative path is written from /", async () => {
    const { backend, ok } = fsTools();
    expect(await ok("write_file", { file_path: "docs/x.md", content: "x" })).toBe(
      "Wrote /docs/x.md (1 line).",
    );
    expect(await contentOf(backend, "/docs/x.md")).toBe("x");
  });

  it("hostile paths are error results and write nothing", async () => {
    const { backend, fails } = fsTools();
    for (const bad of ["../x", "~/x", "/a\0b"]) {
      expect(await fails("write_file", { file_path: bad, content: "x" })).toMatch(
        /^Error: invalid path .*Use an absolute path like \/notes\/a\.md\.$/,
      );
    }
    expect((await backend.ls("/")).files).toEqual([]);
  });
});
