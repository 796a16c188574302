import type { BackendProtocol } from "../backends/protocol/protocol.js";
import { ConfigurationError } from "../errors/configuration-error.js";

// vitest is an optional peer: loaded here when installed, so that an app without it can
// still import delve/testing (for ScriptedChatModel); only the suite itself needs it.
const vitest: typeof import("vitest") | undefined = await import("vitest").catch(() => undefined);

/** What `runBackendConformance` needs: a fresh, empty backend per test, and its cleanup. */
export interface ConformanceSubject {
  backend: BackendProtocol;
  cleanup?: () => Promise<void> | void;
}

/** Options of `runBackendConformance`, for backends that differ from the defaults by design. */
export interface ConformanceOptions {
  /** Skip the `delete` cases (for backends that do not implement it). Default: detect. */
  skipDelete?: boolean;
  /** Per-test timeout in milliseconds. Default 30,000. */
  timeoutMs?: number;
  /**
   * Entries the backend always lists at "/" even when empty, such as a `CompositeBackend`'s
   * route directories ("/memories/"); the root-listing cases ignore them.
   */
  rootEntries?: string[];
}

const enc = new TextEncoder();

/**
 * The backend conformance suite: the behaviours every Delve backend shares (paging, exact
 * edits, recursive delete, the glob contract, literal grep with caps, binary round trips,
 * path refusal). Call it from a vitest file with a factory that returns a fresh, empty
 * backend; a third-party backend passes it to prove it can stand in for a built-in one.
 *
 * @example
 * import { runBackendConformance } from "delve/testing";
 * runBackendConformance("MyBackend", async () => ({ backend: new MyBackend() }));
 */
export function runBackendConformance(
  name: string,
  makeBackend: () => Promise<ConformanceSubject> | ConformanceSubject,
  options: ConformanceOptions = {},
): void {
  if (!vitest) {
    throw new ConfigurationError(
      "VITEST_MISSING",
      "runBackendConformance runs inside vitest: npm install -D vitest.",
    );
  }
  const { describe, expect, it } = vitest;
  const timeout = options.timeoutMs ?? 30_000;
  const notRootEntry = (path: string) => !options.rootEntries?.includes(path);
  const test = (title: string, body: (b: BackendProtocol) => Promise<void>) =>
    it(
      title,
      async () => {
        const subject = await makeBackend();
        try {
          await body(subject.backend);
        } finally {
          await subject.cleanup?.();
        }
      },
      timeout,
    );

  describe(`${name} conforms to the backend protocol`, () => {
    test("write creates a file, a second write overwrites it, read returns the text", async (b) => {
      const first = await b.write("/notes/a.md", "one\ntwo\n");
      expect(first.error).toBeUndefined();
      expect(first.created).toBe(true);
      const second = await b.write("/notes/a.md", "uno\ndos\ntres\n");
      expect(second.error).toBeUndefined();
      expect(second.created).toBe(false);
      const read = await b.read("/notes/a.md");
      expect(read.error).toBeUndefined();
      expect(read.kind).toBe("text");
      expect(read.lines).toEqual(["uno", "dos", "tres"]);
      expect(read.totalLines).toBe(3);
    });

    test("read pages by line with 1-based start/end and the next offset", async (b) => {
      const text = Array.from({ length: 25 }, (_, i) => `line ${i + 1}`).join("\n");
      await b.write("/big.txt", text);
      const page = await b.read("/big.txt", { offset: 10, limit: 5 });
      expect(page.lines).toEqual(["line 11", "line 12", "line 13", "line 14", "line 15"]);
      expect(page.startLine).toBe(11);
      expect(page.endLine).toBe(15);
      expect(page.totalLines).toBe(25);
      expect(page.nextOffset).toBe(15);
      const last = await b.read("/big.txt", { offset: 20, limit: 100 });
      expect(last.lines).toHaveLength(5);
      expect(last.nextOffset).toBeUndefined();
      const past = await b.read("/big.txt", { offset: 40, limit: 10 });
      expect(past.error).toBeUndefined();
      expect(past.lines).toEqual([]);
      expect(past.totalLines).toBe(25);
    });

    test("an empty file reads as zero lines, not an error", async (b) => {
      await b.write("/empty.txt", "");
      const read = await b.read("/empty.txt");
      expect(read.error).toBeUndefined();
      expect(read.lines).toEqual([]);
      expect(read.totalLines).toBe(0);
    });

    test("unicode text survives a round trip", async (b) => {
      const text = "工单 T-1001：快递延误两天 ✓\nemoji 🚚 ok";
      await b.write("/unicode.md", text);
      const read = await b.read("/unicode.md");
      expect(read.lines?.join("\n")).toBe(text);
    });

    test("reading a missing file is a not_found error result", async (b) => {
      const read = await b.read("/nope.txt");
      expect(read.error?.code).toBe("not_found");
    });

    test("ls lists direct children; directories end with a slash", async (b) => {
      await b.write("/a.txt", "a");
      await b.write("/dir/b.txt", "bb");
      await b.write("/dir/sub/c.txt", "ccc");
      const root = await b.ls("/");
      expect(root.error).toBeUndefined();
      const paths = root
        .files!.map((f) => f.path)
        .filter(notRootEntry)
        .sort();
      expect(paths).toEqual(["/a.txt", "/dir/"]);
      expect(root.files!.find((f) => f.path === "/dir/")?.isDir).toBe(true);
      const file = root.files!.find((f) => f.path === "/a.txt")!;
      expect(file.isDir).toBe(false);
      expect(file.size).toBe(1);
      const dir = await b.ls("/dir");
      expect(dir.files!.map((f) => f.path).sort()).toEqual(["/dir/b.txt", "/dir/sub/"]);
    });

    test("ls of an empty backend root is an empty list; a missing directory is not_found", async (b) => {
      const root = await b.ls("/");
      expect(root.error).toBeUndefined();
      expect(root.files!.filter((f) => notRootEntry(f.path))).toEqual([]);
      const missing = await b.ls("/missing");
      expect(missing.error?.code).toBe("not_found");
    });

    test("edit replaces a unique string and reports one occurrence", async (b) => {
      await b.write("/e.txt", "status: open\nowner: ana\n");
      const edit = await b.edit("/e.txt", "open", "resolved");
      expect(edit.error).toBeUndefined();
      expect(edit.occurrences).toBe(1);
      expect((await b.read("/e.txt")).lines).toEqual(["status: resolved", "owner: ana"]);
    });

    test("edit refuses a string that is not unique unless replaceAll", async (b) => {
      await b.write("/e.txt", "x=1\nx=2\nx=3\n");
      const refused = await b.edit("/e.txt", "x=", "y=");
      expect(refused.error?.code).toBe("not_unique");
      expect(refused.occurrences).toBe(3);
      expect((await b.read("/e.txt")).lines).toEqual(["x=1", "x=2", "x=3"]);
      const all = await b.edit("/e.txt", "x=", "y=", { replaceAll: true });
      expect(all.occurrences).toBe(3);
      expect((await b.read("/e.txt")).lines).toEqual(["y=1", "y=2", "y=3"]);
    });

    test("edit of a missing string or a missing file is an error result", async (b) => {
      await b.write("/e.txt", "hello");
      expect((await b.edit("/e.txt", "bye", "x")).error?.code).toBe("string_not_found");
      expect((await b.edit("/none.txt", "a", "b")).error?.code).toBe("not_found");
    });

    test("glob: a pattern without a slash matches file names at any depth", async (b) => {
      await b.write("/a.md", "1");
      await b.write("/docs/b.md", "2");
      await b.write("/docs/deep/c.md", "3");
      await b.write("/docs/d.txt", "4");
      const result = await b.glob("*.md");
      expect(result.files!.map((f) => f.path)).toEqual(["/a.md", "/docs/b.md", "/docs/deep/c.md"]);
    });

    test("glob: ** inside a path matches zero or more directories", async (b) => {
      await b.write("/src/a.py", "1");
      await b.write("/src/pkg/b.py", "2");
      await b.write("/src/pkg/sub/c.py", "3");
      await b.write("/other/d.py", "4");
      const result = await b.glob("src/**/*.py");
      expect(result.files!.map((f) => f.path)).toEqual([
        "/src/a.py",
        "/src/pkg/b.py",
        "/src/pkg/sub/c.py",
      ]);
      const under = await b.glob("*.py", { path: "/src/pkg" });
      expect(under.files!.map((f) => f.path)).toEqual(["/src/pkg/b.py", "/src/pkg/sub/c.py"]);
    });

    test("glob: * does not match dot-files; .* does", async (b) => {
      await b.write("/.env", "SECRET=1");
      await b.write("/app.env", "A=1");
      expect((await b.glob("*.env")).files!.map((f) => f.path)).toEqual(["/app.env"]);
      expect((await b.glob(".*")).files!.map((f) => f.path)).toEqual(["/.env"]);
    });

    test("glob says when it truncates", async (b) => {
      for (let i = 0; i < 12; i++) await b.write(`/many/f${String(i).padStart(2, "0")}.txt`, "x");
      const result = await b.glob("*.txt", { maxResults: 5 });
      expect(result.files).toHaveLength(5);
      expect(result.truncated).toBe(true);
      const all = await b.glob("*.txt");
      expect(all.files).toHaveLength(12);
      expect(all.truncated ?? false).toBe(false);
    });

    test("grep is literal: regex characters match themselves", async (b) => {
      await b.write("/r.txt", "a.b\naxb\n(x)\n");
      const dot = await b.grep("a.b");
      expect(dot.matches).toEqual([{ path: "/r.txt", line: 1, text: "a.b" }]);
      const paren = await b.grep("(x)");
      expect(paren.matches).toEqual([{ path: "/r.txt", line: 3, text: "(x)" }]);
    });

    test("grep reports 1-based line numbers per file, filtered by path and glob", async (b) => {
      await b.write("/t/1.md", "alpha\nbeta\nalpha beta\n");
      await b.write("/t/2.txt", "beta\n");
      await b.write("/u/3.md", "alpha\n");
      const all = await b.grep("alpha");
      expect(all.matches).toEqual([
        { path: "/t/1.md", line: 1, text: "alpha" },
        { path: "/t/1.md", line: 3, text: "alpha beta" },
        { path: "/u/3.md", line: 1, text: "alpha" },
      ]);
      const underT = await b.grep("beta", { path: "/t" });
      expect(underT.matches!.map((m) => `${m.path}:${m.line}`)).toEqual([
        "/t/1.md:2",
        "/t/1.md:3",
        "/t/2.txt:1",
      ]);
      const onlyMd = await b.grep("beta", { glob: "*.md" });
      expect(onlyMd.matches!.map((m) => m.path)).toEqual(["/t/1.md", "/t/1.md"]);
      const none = await b.grep("gamma");
      expect(none.error).toBeUndefined();
      expect(none.matches).toEqual([]);
    });

    test("grep stops at maxCount and marks the result truncated", async (b) => {
      await b.write("/m.txt", Array.from({ length: 30 }, () => "hit").join("\n"));
      const capped = await b.grep("hit", { maxCount: 10 });
      expect(capped.matches).toHaveLength(10);
      expect(capped.truncated).toBe(true);
      const full = await b.grep("hit");
      expect(full.matches).toHaveLength(30);
      expect(full.truncated ?? false).toBe(false);
    });

    test("bytes uploaded come back byte for byte and read as binary", async (b) => {
      const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255, 254]);
      const up = await b.uploadFiles([{ path: "/img/pic.png", content: bytes }]);
      expect(up).toEqual([{ path: "/img/pic.png" }]);
      const down = await b.downloadFiles(["/img/pic.png", "/img/none.png"]);
      expect(Array.from(down[0]!.content!)).toEqual(Array.from(bytes));
      expect(down[1]!.error?.code).toBe("not_found");
      const read = await b.read("/img/pic.png");
      expect(read.kind).toBe("binary");
      expect(Array.from(read.bytes!)).toEqual(Array.from(bytes));
    });

    test("uploaded text is readable as text", async (b) => {
      await b.uploadFiles([{ path: "/up.txt", content: enc.encode("hello\nworld\n") }]);
      expect((await b.read("/up.txt")).lines).toEqual(["hello", "world"]);
    });

    test("paths that climb out or smuggle bytes are refused as invalid_path", async (b) => {
      for (const bad of ["../x.txt", "/a/../../etc/passwd", "/a\0b", "~/x", "/a\\..\\b"]) {
        expect((await b.write(bad, "x")).error?.code, bad).toBe("invalid_path");
        expect((await b.read(bad)).error?.code, bad).toBe("invalid_path");
      }
    });

    test("a page of a large file comes back without reading it all into the answer", async (b) => {
      const text = Array.from({ length: 20_000 }, (_, i) => `row ${i}`).join("\n");
      await b.write("/large.txt", text);
      const page = await b.read("/large.txt", { offset: 19_990, limit: 100 });
      expect(page.lines).toHaveLength(10);
      expect(page.lines![9]).toBe("row 19999");
      expect(page.totalLines).toBe(20_000);
    });

    describe("delete", () => {
      test("delete removes a file", async (b) => {
        if (!b.delete || options.skipDelete) return;
        await b.write("/d/a.txt", "a");
        const result = await b.delete("/d/a.txt");
        expect(result.error).toBeUndefined();
        expect(result.deleted).toEqual(["/d/a.txt"]);
        expect((await b.read("/d/a.txt")).error?.code).toBe("not_found");
      });

      test("delete of a directory removes everything under it and nothing else", async (b) => {
        if (!b.delete || options.skipDelete) return;
        await b.write("/d/a.txt", "a");
        await b.write("/d/sub/b.txt", "b");
        await b.write("/dx.txt", "keep");
        const result = await b.delete("/d");
        expect(result.deleted?.slice().sort()).toEqual(["/d/a.txt", "/d/sub/b.txt"]);
        expect((await b.glob("**")).files!.map((f) => f.path)).toEqual(["/dx.txt"]);
      });

      test("delete of a missing path is not_found", async (b) => {
        if (!b.delete || options.skipDelete) return;
        expect((await b.delete("/ghost")).error?.code).toBe("not_found");
      });
    });
  });
}
