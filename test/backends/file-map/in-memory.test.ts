import { ConfigurationError, InMemoryBackend } from "delve";
import { describe, expect, it } from "vitest";
import {
  deleteFiles,
  fileMapOfRecord,
  grepFiles,
  writeFile,
} from "../../../src/backends/file-map/file-map-ops.js";

const textOf = (bytes: Uint8Array | undefined) =>
  new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);

describe("InMemoryBackend", () => {
  it("ls lists direct children sorted, directories ending with a slash", async () => {
    const backend = new InMemoryBackend({
      files: { "/b.md": "bb", "/a/x.md": "x", "/a/deep/y.md": "y", "/c/z.md": "z" },
    });
    const root = await backend.ls("/");
    expect(root.files?.map((f) => [f.path, f.isDir])).toEqual([
      ["/a/", true],
      ["/b.md", false],
      ["/c/", true],
    ]);
    expect(root.files?.[1]).toMatchObject({ size: 2, modifiedAt: expect.any(String) });
    const sub = await backend.ls("/a");
    expect(sub.files?.map((f) => f.path)).toEqual(["/a/deep/", "/a/x.md"]);
  });

  it("ls of a missing directory is not_found and of a file is not_a_directory", async () => {
    const backend = new InMemoryBackend({ files: { "/a.md": "x" } });
    expect((await backend.ls("/nope")).error?.code).toBe("not_found");
    expect((await backend.ls("/a.md")).error?.code).toBe("not_a_directory");
    expect(await new InMemoryBackend().ls("/")).toEqual({ files: [] });
  });

  it("paths are normalised and hostile ones refused with invalid_path", async () => {
    const backend = new InMemoryBackend();
    expect(await backend.write("notes//a.md", "x")).toEqual({ path: "/notes/a.md", created: true });
    for (const bad of ["/x/../etc", "~/a", "/a\0b", "/a\\b", "/a%2e%2e"]) {
      expect((await backend.read(bad)).error?.code).toBe("invalid_path");
      expect((await backend.write(bad, "x")).error?.code).toBe("invalid_path");
    }
  });

  it("write reports created, then overwrite keeps createdAt", async () => {
    const backend = new InMemoryBackend();
    expect((await backend.write("/a.md", "one")).created).toBe(true);
    const first = backend.snapshot()["/a.md"]!;
    await new Promise((r) => setTimeout(r, 5));
    expect((await backend.write("/a.md", "two")).created).toBe(false);
    const second = backend.snapshot()["/a.md"]!;
    expect(second.content).toBe("two");
    expect(second.createdAt).toBe(first.createdAt);
    expect(second.modifiedAt > first.modifiedAt).toBe(true);
  });

  it("write refuses a directory target and a path below a file", async () => {
    const backend = new InMemoryBackend({ files: { "/d/a.md": "x", "/f.md": "y" } });
    expect((await backend.write("/d", "x")).error?.code).toBe("is_directory");
    expect((await backend.write("/f.md/g.md", "x")).error?.code).toBe("not_a_directory");
  });

  it("read pages text by lines and reports the next offset", async () => {
    const lines = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join("\n");
    const backend = new InMemoryBackend({ files: { "/a.txt": `${lines}\n` } });
    const page = await backend.read("/a.txt", { offset: 2, limit: 3 });
    expect(page).toMatchObject({
      kind: "text",
      lines: ["line 3", "line 4", "line 5"],
      startLine: 3,
      endLine: 5,
      totalLines: 10,
      nextOffset: 5,
    });
    expect((await backend.read("/")).error?.code).toBe("is_directory");
    expect((await backend.read("/missing")).error?.code).toBe("not_found");
  });

  it("binary uploads read back as bytes and text uploads stay greppable", async () => {
    const backend = new InMemoryBackend();
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);
    const results = await backend.uploadFiles([
      { path: "/img/a.png", content: png },
      { path: "/notes.md", content: new TextEncoder().encode("\uFEFFhello world\n") },
      { path: "../x", content: png },
    ]);
    expect(results.map((r) => r.error?.code)).toEqual([undefined, undefined, "invalid_path"]);
    expect(await backend.read("/img/a.png")).toEqual({ kind: "binary", bytes: png, size: 8 });
    expect((await backend.grep("world")).matches?.map((m) => m.path)).toEqual(["/notes.md"]);
    const [img, notes, missing] = await backend.downloadFiles(["/img/a.png", "/notes.md", "/no"]);
    expect(img!.content).toEqual(png);
    expect(textOf(notes!.content)).toBe("\uFEFFhello world\n");
    expect(missing!.error?.code).toBe("not_found");
    expect((await backend.edit("/img/a.png", "P", "Q")).error?.code).toBe("unsupported");
  });

  it("edit replaces a unique string and refuses ambiguous or missing ones", async () => {
    const backend = new InMemoryBackend({ files: { "/a.md": "x y x" } });
    expect((await backend.edit("/a.md", "x", "z")).error).toEqual({
      code: "not_unique",
      message: "old_string appears 2 times in the file",
    });
    expect((await backend.edit("/a.md", "q", "z")).error?.code).toBe("string_not_found");
    expect(await backend.edit("/a.md", "y", "Y")).toEqual({ path: "/a.md", occurrences: 1 });
    expect(await backend.edit("/a.md", "x", "z", { replaceAll: true })).toEqual({
      path: "/a.md",
      occurrences: 2,
    });
    expect(backend.snapshot()["/a.md"]!.content).toBe("z Y z");
    expect((await backend.edit("/b.md", "x", "z")).error?.code).toBe("not_found");
  });

  it("delete removes a file or a whole directory and refuses the root", async () => {
    const backend = new InMemoryBackend({
      files: { "/d/a.md": "a", "/d/e/b.md": "b", "/dd.md": "c", "/f.md": "f" },
    });
    expect(await backend.delete("/f.md")).toEqual({ deleted: ["/f.md"] });
    expect(await backend.delete("/d")).toEqual({ deleted: ["/d/a.md", "/d/e/b.md"] });
    expect(Object.keys(backend.snapshot())).toEqual(["/dd.md"]);
    expect((await backend.delete("/d")).error?.code).toBe("not_found");
    expect((await backend.delete("/")).error?.code).toBe("invalid_path");
  });

  it("glob follows the shared contract, sorted, with maxResults and truncated", async () => {
    const backend = new InMemoryBackend({
      files: { "/src/b.ts": "", "/src/a.ts": "", "/src/deep/c.ts": "", "/.env": "", "/x.md": "" },
    });
    const all = await backend.glob("*.ts");
    expect(all.files?.map((f) => f.path)).toEqual(["/src/a.ts", "/src/b.ts", "/src/deep/c.ts"]);
    expect((await backend.glob("deep/*.ts", { path: "/src" })).files?.map((f) => f.path)).toEqual([
      "/src/deep/c.ts",
    ]);
    expect((await backend.glob("**")).files?.map((f) => f.path)).not.toContain("/.env");
    expect((await backend.glob(".env")).files?.map((f) => f.path)).toEqual(["/.env"]);
    const capped = await backend.glob("*.ts", { maxResults: 2 });
    expect(capped).toMatchObject({ truncated: true });
    expect(capped.files?.map((f) => f.path)).toEqual(["/src/a.ts", "/src/b.ts"]);
  });

  it("grep is literal, filters by path, file and glob, and truncates at maxCount", async () => {
    const backend = new InMemoryBackend({
      files: {
        "/b.md": "a.b\nnope\na.b again\n",
        "/a.md": "axb\r\na.b\n",
        "/sub/c.ts": "a.b",
        "/bin.png": new Uint8Array([97, 46, 98, 0]),
      },
    });
    const all = await backend.grep("a.b");
    expect(all.matches).toEqual([
      { path: "/a.md", line: 2, text: "a.b" },
      { path: "/b.md", line: 1, text: "a.b" },
      { path: "/b.md", line: 3, text: "a.b again" },
      { path: "/sub/c.ts", line: 1, text: "a.b" },
    ]);
    expect(all.truncated).toBeUndefined();
    expect((await backend.grep("a.b", { path: "/sub" })).matches?.length).toBe(1);
    expect((await backend.grep("a.b", { path: "/b.md" })).matches?.length).toBe(2);
    expect((await backend.grep("a.b", { glob: "*.ts" })).matches?.map((m) => m.path)).toEqual([
      "/sub/c.ts",
    ]);
    const capped = await backend.grep("a.b", { maxCount: 2 });
    expect(capped.truncated).toBe(true);
    expect(capped.matches?.length).toBe(2);
    expect((await backend.grep("a.b", { maxCount: 4 })).truncated).toBeUndefined();
  });

  it("an invalid initial path is a construction error", () => {
    expect(() => new InMemoryBackend({ files: { "../x": "" } })).toThrow(ConfigurationError);
  });
});

describe("file-map operations over a state record", () => {
  it("return changes instead of mutating, with null for deletions", () => {
    const record = {
      "/a.md": { content: "x", encoding: "utf-8" as const, createdAt: "t0", modifiedAt: "t0" },
    };
    const view = fileMapOfRecord(record);
    const written = writeFile(view, { path: "/b.md", content: "y", now: "t1" });
    expect(written.changes).toEqual({
      "/b.md": { content: "y", encoding: "utf-8", createdAt: "t1", modifiedAt: "t1" },
    });
    expect(deleteFiles(view, { path: "/a.md" }).changes).toEqual({ "/a.md": null });
    expect(Object.keys(record)).toEqual(["/a.md"]);
    expect(grepFiles(view, { pattern: "x" }).matches).toEqual([
      { path: "/a.md", line: 1, text: "x" },
    ]);
    // Inherited keys of a plain object are not files.
    expect(view.get("toString")).toBeUndefined();
  });

  it("grep over 2,000 files of 2 KB stays fast", () => {
    const files = new Map<string, any>();
    const body = `${"lorem ipsum dolor sit amet ".repeat(75)}\n`;
    for (let i = 0; i < 2000; i++) {
      const content = i % 10 === 0 ? `${body}needle ${i}\n` : body;
      files.set(`/dir${i % 20}/file${i}.txt`, {
        content,
        encoding: "utf-8",
        createdAt: "",
        modifiedAt: "",
      });
    }
    grepFiles(files, { pattern: "needle" });
    const started = performance.now();
    const result = grepFiles(files, { pattern: "needle", glob: "*.txt" });
    const elapsed = performance.now() - started;
    expect(result.matches?.length).toBe(200);
    expect(elapsed).toBeLessThan(50);
  });
});
