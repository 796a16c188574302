import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { FilesystemBackend } from "delve";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

let root: string;
let backend: FilesystemBackend;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "delve-fs-"));
  backend = new FilesystemBackend({ rootDir: root });
});

afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

const onDisk = (p: string) => path.join(root, p);
const put = (p: string, content: string | Uint8Array) => {
  fs.mkdirSync(path.dirname(onDisk(p)), { recursive: true });
  fs.writeFileSync(onDisk(p), content);
};

// Matches a ConfigurationError carrying `code`.
const configError = (code: string) => expect.objectContaining({ name: "ConfigurationError", code });

describe("FilesystemBackend construction", () => {
  it("a missing rootDir is a MISSING_OPTION configuration error", () => {
    expect(() => new FilesystemBackend({} as never)).toThrow(configError("MISSING_OPTION"));
  });

  it("a rootDir that does not exist or is a file is an INVALID_OPTION error", () => {
    const missing = path.join(root, "nope");
    expect(() => new FilesystemBackend({ rootDir: missing })).toThrow(
      configError("INVALID_OPTION"),
    );
    put("/file.txt", "x");
    expect(() => new FilesystemBackend({ rootDir: onDisk("/file.txt") })).toThrow(
      configError("INVALID_OPTION"),
    );
  });

  it("a misspelt option such as root_dir is an UNKNOWN_OPTION error, not ignored", () => {
    const make = () => new FilesystemBackend({ rootDir: root, virtual_mode: false } as never);
    expect(make).toThrow(configError("UNKNOWN_OPTION"));
  });

  it("maxFileSizeMb must be positive", () => {
    expect(() => new FilesystemBackend({ rootDir: root, maxFileSizeMb: 0 })).toThrow(
      configError("INVALID_OPTION"),
    );
  });

  it("a rootDir given through a symlink is resolved to its real path", async () => {
    const link = `${root}-link`;
    fs.symlinkSync(root, link);
    try {
      const viaLink = new FilesystemBackend({ rootDir: link });
      expect(viaLink.rootDir).toBe(fs.realpathSync(root));
      expect((await viaLink.write("/a.txt", "hi")).error).toBeUndefined();
      expect(fs.readFileSync(onDisk("/a.txt"), "utf8")).toBe("hi");
    } finally {
      fs.unlinkSync(link);
    }
  });
});

describe("FilesystemBackend on disk", () => {
  it("write lands under rootDir and creates the parent directories", async () => {
    const result = await backend.write("/deep/er/note.md", "hello\n");
    expect(result).toEqual({ path: "/deep/er/note.md", created: true });
    expect(fs.readFileSync(onDisk("/deep/er/note.md"), "utf8")).toBe("hello\n");
  });

  it("a shorter overwrite leaves no tail of the old content", async () => {
    await backend.write("/a.txt", "a long first version\n");
    await backend.write("/a.txt", "short\n");
    expect(fs.readFileSync(onDisk("/a.txt"), "utf8")).toBe("short\n");
  });

  it("writing under a path whose parent is a file is not_a_directory", async () => {
    put("/f", "x");
    expect((await backend.write("/f/child.txt", "y")).error?.code).toBe("not_a_directory");
  });

  it("writing or reading a directory is is_directory", async () => {
    put("/d/x.txt", "x");
    expect((await backend.write("/d", "y")).error?.code).toBe("is_directory");
    expect((await backend.read("/d")).error?.code).toBe("is_directory");
    expect((await backend.write("/", "y")).error?.code).toBe("is_directory");
  });

  it("ls gives sizes and ISO modification times, directories with a slash, sorted", async () => {
    put("/b.txt", "12345");
    put("/a-c.txt", "1");
    put("/a/inner.txt", "1");
    const result = await backend.ls("/");
    expect(result.files!.map((f) => f.path)).toEqual(["/a-c.txt", "/a/", "/b.txt"]);
    const b = result.files!.find((f) => f.path === "/b.txt")!;
    expect(b.size).toBe(5);
    expect(new Date(b.modifiedAt!).toISOString()).toBe(b.modifiedAt);
    expect(result.files!.find((f) => f.path === "/a/")!.isDir).toBe(true);
  });

  it("ls of a file is not_a_directory", async () => {
    put("/f.txt", "x");
    expect((await backend.ls("/f.txt")).error?.code).toBe("not_a_directory");
  });

  it("a media extension reads as binary even when the bytes are text", async () => {
    put("/pic.png", "not really a png");
    const read = await backend.read("/pic.png");
    expect(read.kind).toBe("binary");
    expect(Buffer.from(read.bytes!).toString()).toBe("not really a png");
  });

  it("bytes with NUL read as binary whatever the extension", async () => {
    put("/data.txt", new Uint8Array([104, 105, 0, 1, 2]));
    const read = await backend.read("/data.txt");
    expect(read.kind).toBe("binary");
    expect(Array.from(read.bytes!)).toEqual([104, 105, 0, 1, 2]);
  });

  it("a file over maxFileSizeMb is too_large for read, edit and download", async () => {
    const small = new FilesystemBackend({ rootDir: root, maxFileSizeMb: 0.001 });
    put("/big.txt", "x".repeat(2000));
    expect((await small.read("/big.txt")).error?.code).toBe("too_large");
    expect((await small.edit("/big.txt", "x", "y", { replaceAll: true })).error?.code).toBe(
      "too_large",
    );
    expect((await small.downloadFiles(["/big.txt"]))[0]!.error?.code).toBe("too_large");
  });

  it("edit refuses a binary file", async () => {
    put("/b.bin", new Uint8Array([0, 1, 2, 65]));
    expect((await backend.edit("/b.bin", "A", "B")).error?.code).toBe("unsupported");
  });

  it("delete of a directory removes it from disk and lists every file", async () => {
    put("/d/a.txt", "a");
    put("/d/s/b.txt", "b");
    fs.mkdirSync(onDisk("/d/empty"));
    const result = await backend.delete("/d");
    expect(result.deleted).toEqual(["/d/a.txt", "/d/s/b.txt"]);
    expect(fs.existsSync(onDisk("/d"))).toBe(false);
  });

  it("deleting the root is refused", async () => {
    put("/keep.txt", "k");
    expect((await backend.delete("/")).error?.code).toBe("invalid_path");
    expect(fs.existsSync(onDisk("/keep.txt"))).toBe(true);
  });

  it("deleting a symlink removes the link, never its target", async () => {
    put("/target.txt", "t");
    fs.symlinkSync("target.txt", onDisk("/link.txt"));
    expect((await backend.delete("/link.txt")).deleted).toEqual(["/link.txt"]);
    expect(fs.readFileSync(onDisk("/target.txt"), "utf8")).toBe("t");
  });

  it("a symlink that stays inside the root is followed by read, write and glob", async () => {
    put("/real/a.txt", "inside");
    fs.symlinkSync("real/a.txt", onDisk("/alias.txt"));
    fs.symlinkSync("real", onDisk("/alias-dir"));
    expect((await backend.read("/alias.txt")).lines).toEqual(["inside"]);
    expect((await backend.read("/alias-dir/a.txt")).lines).toEqual(["inside"]);
    expect((await backend.write("/alias.txt", "changed")).error).toBeUndefined();
    expect(fs.readFileSync(onDisk("/real/a.txt"), "utf8")).toBe("changed");
    // glob lists the symlinked file but does not descend into the symlinked directory.
    expect((await backend.glob("**")).files!.map((f) => f.path)).toEqual([
      "/alias.txt",
      "/real/a.txt",
    ]);
  });

  it("a symlink loop is refused as invalid_path", async () => {
    fs.symlinkSync("loop-b", onDisk("/loop-a"));
    fs.symlinkSync("loop-a", onDisk("/loop-b"));
    expect((await backend.read("/loop-a")).error?.code).toBe("invalid_path");
    expect((await backend.grep("x")).error).toBeUndefined();
  });

  it("a FIFO is refused by read and skipped by grep without blocking", async () => {
    const { execFileSync } = await import("node:child_process");
    execFileSync("mkfifo", [onDisk("/pipe")]);
    put("/a.txt", "needle");
    expect((await backend.read("/pipe")).error?.code).toBe("unsupported");
    expect((await backend.grep("needle")).matches).toEqual([
      { path: "/a.txt", line: 1, text: "needle" },
    ]);
  });

  it("glob and grep on a missing directory are not_found", async () => {
    expect((await backend.glob("*", { path: "/missing" })).error?.code).toBe("not_found");
    expect((await backend.grep("x", { path: "/missing" })).error?.code).toBe("not_found");
  });

  it("error messages name the virtual path, never the host rootDir", async () => {
    const results = [
      await backend.read("/nope/x.txt"),
      await backend.ls("/nope"),
      await backend.delete("/nope"),
      await backend.edit("/nope.txt", "a", "b"),
    ];
    for (const result of results) {
      expect(result.error?.message).toContain("/nope");
      expect(result.error?.message).not.toContain(root);
    }
  });
});

describe("FilesystemBackend.grep", () => {
  it("returns matches in full-path order across directories", async () => {
    put("/a/b.txt", "hit");
    put("/a-c.txt", "hit");
    put("/a.txt", "hit");
    const result = await backend.grep("hit");
    expect(result.matches!.map((m) => m.path)).toEqual(["/a-c.txt", "/a.txt", "/a/b.txt"]);
  });

  it("skips binary files and media files", async () => {
    put("/text.md", "needle here");
    put("/bin.dat", Buffer.concat([Buffer.from("needle"), Buffer.from([0, 0, 1])]));
    put("/photo.jpg", "needle in a jpg");
    expect((await backend.grep("needle")).matches!.map((m) => m.path)).toEqual(["/text.md"]);
  });

  it("searches files over maxFileSizeMb too, never skipping them silently", async () => {
    const small = new FilesystemBackend({ rootDir: root, maxFileSizeMb: 0.001 });
    put("/big.txt", `needle${"x".repeat(2000)}`);
    put("/small.txt", "needle");
    expect((await small.grep("needle")).matches!.map((m) => m.path)).toEqual([
      "/big.txt",
      "/small.txt",
    ]);
  });

  it("searches a single file when path names one", async () => {
    put("/one.txt", "a\nneedle\n");
    put("/two.txt", "needle\n");
    expect((await backend.grep("needle", { path: "/one.txt" })).matches).toEqual([
      { path: "/one.txt", line: 2, text: "needle" },
    ]);
  });

  it("finds multi-byte patterns and reports lines with CRLF endings stripped", async () => {
    put("/zh.txt", "第一行\r\n工单 延误\r\n");
    expect((await backend.grep("延误")).matches).toEqual([
      { path: "/zh.txt", line: 2, text: "工单 延误" },
    ]);
  });

  it("stops at maxCount across files and says so", async () => {
    for (let i = 0; i < 5; i++) put(`/f${i}.txt`, "hit\nhit\n");
    const result = await backend.grep("hit", { maxCount: 3 });
    expect(result.matches).toHaveLength(3);
    expect(result.truncated).toBe(true);
  });

  it("dot-files are searched unless a glob leaves them out", async () => {
    put("/.env", "TOKEN=needle");
    put("/app.txt", "needle");
    expect((await backend.grep("needle")).matches!.map((m) => m.path)).toEqual([
      "/.env",
      "/app.txt",
    ]);
    expect((await backend.grep("needle", { glob: "*.txt" })).matches!.map((m) => m.path)).toEqual([
      "/app.txt",
    ]);
  });
});

describe("FilesystemBackend with virtualMode false", () => {
  it("takes host paths, absolute or relative to rootDir, and reports host paths", async () => {
    const host = new FilesystemBackend({ rootDir: root, virtualMode: false });
    const real = fs.realpathSync(root);
    const written = await host.write("notes/a.md", "alpha\n");
    expect(written.path).toBe(path.join(real, "notes/a.md"));
    expect((await host.read(path.join(real, "notes/a.md"))).lines).toEqual(["alpha"]);
    expect((await host.grep("alpha")).matches).toEqual([
      { path: path.join(real, "notes/a.md"), line: 1, text: "alpha" },
    ]);
    expect((await host.glob("*.md")).files!.map((f) => f.path)).toEqual([
      path.join(real, "notes/a.md"),
    ]);
  });

  it("offers no protection: .. reaches outside rootDir", async () => {
    const sibling = fs.mkdtempSync(path.join(os.tmpdir(), "delve-fs-sibling-"));
    try {
      fs.writeFileSync(path.join(sibling, "s.txt"), "outside");
      const host = new FilesystemBackend({ rootDir: root, virtualMode: false });
      const read = await host.read(`../${path.basename(sibling)}/s.txt`);
      expect(read.lines).toEqual(["outside"]);
    } finally {
      fs.rmSync(sibling, { recursive: true, force: true });
    }
  });
});
