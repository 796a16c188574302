import { StateBackend } from "delve";
import { describe, expect, it } from "vitest";
import { fsTools, surfaceText, toolNamed, visibleTools, withoutDelete } from "./fs-harness.js";

describe("delete", () => {
  it("the model-facing text", () => {
    expect(surfaceText([toolNamed(fsTools().tools, "delete")])).toMatchInlineSnapshot(`
      "## delete
      Delete a file, or a directory with everything under it. Permanent: there is no undo. Only when removal is wanted. To change a file, use edit_file instead.
      {"type":"object","properties":{"file_path":{"type":"string"}},"required":["file_path"]}"
    `);
  });

  it("deletes one file", async () => {
    const { backend, ok } = fsTools();
    await backend.write("/a.md", "x");
    await backend.write("/b.md", "y");
    expect(await ok("delete", { file_path: "/a.md" })).toBe("Deleted /a.md.");
    expect((await backend.ls("/")).files?.map((f) => f.path)).toEqual(["/b.md"]);
  });

  it("deletes a directory with everything under it and says how many files went", async () => {
    const { backend, ok } = fsTools();
    await backend.write("/d/a.md", "x");
    await backend.write("/d/e/b.md", "x");
    await backend.write("/keep.md", "x");
    expect(await ok("delete", { file_path: "/d" })).toBe("Deleted /d (2 files).");
    expect((await backend.ls("/")).files?.map((f) => f.path)).toEqual(["/keep.md"]);
  });

  it("a missing path is an error result", async () => {
    const { fails } = fsTools();
    expect(await fails("delete", { file_path: "/ghost" })).toBe(
      "Error: /ghost does not exist. Check the path with ls.",
    );
  });

  it("the root is refused, however it is spelled", async () => {
    const { backend, fails } = fsTools();
    await backend.write("/a.md", "x");
    for (const root of ["/", "//", "/./", "."]) {
      expect(await fails("delete", { file_path: root })).toBe(
        "Error: refusing to delete the root directory. Name a file or directory.",
      );
    }
    expect((await backend.ls("/")).files).toHaveLength(1);
  });

  it("hostile paths are error results and delete nothing", async () => {
    const { backend, fails } = fsTools();
    await backend.write("/b", "x");
    for (const bad of ["../x", "~/x", "/a\0b", "/a/../b"]) {
      expect(await fails("delete", { file_path: bad })).toMatch(/^Error: invalid path /);
    }
    expect((await backend.ls("/")).files).toHaveLength(1);
  });

  it("a backend without delete hides the tool; called anyway it is an error result", async () => {
    const { middleware, fails } = fsTools({ backend: withoutDelete(new StateBackend()) });
    expect(middleware.tools?.map((t: any) => t.name)).toContain("delete");
    expect((await visibleTools(middleware)).map((t) => t.name)).not.toContain("delete");
    expect(await fails("delete", { file_path: "/a.md" })).toBe(
      "Error: this file system does not support deletion.",
    );
  });
});
