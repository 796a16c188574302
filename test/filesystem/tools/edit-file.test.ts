import { describe, expect, it } from "vitest";
import { contentOf, fsTools, surfaceText, toolNamed } from "./fs-harness.js";

describe("edit_file", () => {
  it("the model-facing text", () => {
    expect(surfaceText([toolNamed(fsTools().tools, "edit_file")])).toMatchInlineSnapshot(`
      "## edit_file
      Replace exact text in a file. old_string must match the file exactly, whitespace included, and be unique unless replace_all is true. Read the file first; copy old_string without the line-number prefix, adding nearby lines to make it unique.
      {"type":"object","properties":{"file_path":{"type":"string"},"old_string":{"type":"string","minLength":1},"new_string":{"type":"string"},"replace_all":{"type":"boolean"}},"required":["file_path","old_string","new_string"]}"
    `);
  });

  it("replaces a unique exact string", async () => {
    const { backend, ok } = fsTools();
    await backend.write("/a.py", "def f():\n    return 1\n");
    expect(
      await ok("edit_file", { file_path: "/a.py", old_string: "return 1", new_string: "return 2" }),
    ).toBe("Edited /a.py: replaced 1 occurrence.");
    expect(await contentOf(backend, "/a.py")).toBe("def f():\n    return 2\n");
  });

  it("a string that is not there is an error saying to copy the exact text", async () => {
    const { backend, fails } = fsTools();
    await backend.write("/a.py", "    return 1\n");
    expect(
      await fails("edit_file", { file_path: "/a.py", old_string: "return  1", new_string: "x" }),
    ).toBe(
      "Error: old_string was not found in /a.py. Read the file and copy the exact text, including whitespace and indentation.",
    );
    expect(await contentOf(backend, "/a.py")).toBe("    return 1\n");
  });

  it("a string found several times is an error giving the count and naming replace_all", async () => {
    const { backend, fails } = fsTools();
    await backend.write("/a.md", "TODO one\nTODO two\nTODO three\n");
    expect(
      await fails("edit_file", { file_path: "/a.md", old_string: "TODO", new_string: "DONE" }),
    ).toBe(
      "Error: old_string appears 3 times in /a.md. Add surrounding lines to make it unique, or set replace_all to true to replace every occurrence.",
    );
    expect(await contentOf(backend, "/a.md")).toBe("TODO one\nTODO two\nTODO three\n");
  });

  it("replace_all replaces every occurrence and says how many", async () => {
    const { backend, ok } = fsTools();
    await backend.write("/a.md", "TODO one\nTODO two\nTODO three\n");
    expect(
      await ok("edit_file", {
        file_path: "/a.md",
        old_string: "TODO",
        new_string: "DONE",
        replace_all: true,
      }),
    ).toBe("Edited /a.md: replaced 3 occurrences.");
    expect(await contentOf(backend, "/a.md")).toBe("DONE one\nDONE two\nDONE three\n");
  });

  it("identical old_string and new_string are refused", async () => {
    const { backend, fails } = fsTools();
    await backend.write("/a.md", "same\n");
    expect(
      await fails("edit_file", { file_path: "/a.md", old_string: "same", new_string: "same" }),
    ).toBe("Error: old_string and new_string are identical; nothing would change.");
  });

  it("old_string may span lines (copied without the line-number prefix)", async () => {
    const { backend, ok } = fsTools();
    await backend.write("/a.md", "a\nb\nc\n");
    await ok("edit_file", { file_path: "/a.md", old_string: "a\nb\n", new_string: "" });
    expect(await contentOf(backend, "/a.md")).toBe("c\n");
  });

  it("a missing file is an error naming the path", async () => {
    const { fails } = fsTools();
    expect(
      await fails("edit_file", { file_path: "/none.md", old_string: "a", new_string: "b" }),
    ).toBe("Error: /none.md does not exist. Check the path with ls.");
  });

  it("hostile paths are error results, never exceptions", async () => {
    const { fails } = fsTools();
    for (const bad of ["../x", "~/x", "/a\0b"]) {
      expect(
        await fails("edit_file", { file_path: bad, old_string: "a", new_string: "b" }),
      ).toMatch(/^Error: invalid path /);
    }
  });
});
