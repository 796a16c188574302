import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FilesystemBackend, InMemoryBackend } from "delve";
import { afterAll, describe, expect, it } from "vitest";
import { fsTools } from "./tools/fs-harness.js";

const root = mkdtempSync(join(tmpdir(), "delve-crlf-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("a CRLF file is edited across lines with the text read_file showed", () => {
  it("on disk: the multi-line edit applies and the file keeps its CRLF line ends", async () => {
    writeFileSync(join(root, "win.txt"), "first\r\nsecond\r\nthird\r\n");
    const { ok } = fsTools({ backend: new FilesystemBackend({ rootDir: root }) });
    const shown = await ok("read_file", { file_path: "/win.txt" });
    expect(shown).toContain("2  second");
    expect(shown).not.toContain("\r");
    await ok("edit_file", {
      file_path: "/win.txt",
      old_string: "first\nsecond",
      new_string: "one\ntwo\nand a half",
    });
    expect(readFileSync(join(root, "win.txt"), "utf8")).toBe(
      "one\r\ntwo\r\nand a half\r\nthird\r\n",
    );
  });

  it("in memory too, and a string that is really absent is still not found", async () => {
    const backend = new InMemoryBackend({ files: { "/a.txt": "x\r\ny\r\nz" } });
    const { ok, fails } = fsTools({ backend });
    await ok("edit_file", { file_path: "/a.txt", old_string: "y\nz", new_string: "Y\nZ" });
    expect((await backend.read("/a.txt")).lines).toEqual(["x", "Y", "Z"]);
    expect(await backend.downloadFiles(["/a.txt"])).toMatchObject([
      { content: new TextEncoder().encode("x\r\nY\r\nZ") },
    ]);
    expect(
      await fails("edit_file", { file_path: "/a.txt", old_string: "x\nq", new_string: "-" }),
    ).toContain("not found");
  });
});
