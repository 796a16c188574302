import type { GrepResult } from "delve";
import { CompositeBackend, ConfigurationError, InMemoryBackend } from "delve";
import { describe, expect, it } from "vitest";
import { routeGlobs } from "../../../src/backends/compose/composite-routes.js";
import { assertBackendInstance } from "../../../src/backends/protocol/assert-backend.js";
import { RecordingExecBackend, withoutDelete } from "../../helpers/backend-doubles.js";

const paths = (r: { files?: { path: string }[] }) => r.files?.map((f) => f.path);

function setup() {
  const main = new InMemoryBackend({
    files: { "/notes/todo.md": "buy milk\n", "/readme.md": "milk and honey\n" },
  });
  const memories = new InMemoryBackend({
    files: { "/prefs.md": "likes milk\n", "/people/ana.md": "ana drinks milk\n" },
  });
  const backend = new CompositeBackend({ default: main, routes: { "/memories/": memories } });
  return { main, memories, backend };
}

describe("CompositeBackend routing", () => {
  it("a routed path reaches its backend with the prefix stripped and comes back prefixed", async () => {
    const { main, memories, backend } = setup();
    expect(await backend.write("/memories/new.md", "x")).toEqual({
      path: "/memories/new.md",
      created: true,
    });
    expect(Object.keys(memories.snapshot())).toContain("/new.md");
    expect(Object.keys(main.snapshot())).not.toContain("/memories/new.md");
    expect(await backend.edit("/memories/new.md", "x", "y")).toEqual({
      path: "/memories/new.md",
      occurrences: 1,
    });
    expect((await backend.read("/memories/prefs.md")).lines).toEqual(["likes milk"]);
    expect((await backend.read("/notes/todo.md")).lines).toEqual(["buy milk"]);
  });

  it("the longest matching prefix wins", async () => {
    const outer = new InMemoryBackend();
    const inner = new InMemoryBackend();
    const backend = new CompositeBackend({
      default: new InMemoryBackend(),
      routes: { "/m/": outer, "/m/deep/": inner },
    });
    await backend.write("/m/deep/x.md", "deep");
    await backend.write("/m/x.md", "shallow");
    await backend.write("/m/deeper.md", "not deep");
    expect(Object.keys(inner.snapshot())).toEqual(["/x.md"]);
    expect(Object.keys(outer.snapshot()).sort()).toEqual(["/deeper.md", "/x.md"]);
    expect(paths(await backend.ls("/m"))).toEqual(["/m/deep/", "/m/deeper.md", "/m/x.md"]);
  });

  it("the route's own directory is the route backend's root", async () => {
    const { backend } = setup();
    expect((await backend.read("/memories")).error?.code).toBe("is_directory");
    expect(paths(await backend.ls("/memories"))).toEqual([
      "/memories/people/",
      "/memories/prefs.md",
    ]);
  });

  it("errors from a route name the path the caller used", async () => {
    const { backend } = setup();
    expect((await backend.read("/memories/nope.md")).error).toEqual({
      code: "not_found",
      message: "file not found: /memories/nope.md",
    });
    expect((await backend.read("/memories/../etc/passwd")).error?.code).toBe("invalid_path");
  });

  it("uploads and downloads are routed per path and answered in order", async () => {
    const { memories, backend } = setup();
    const bytes = new Uint8Array([1, 2, 0, 3]);
    const uploaded = await backend.uploadFiles([
      { path: "/memories/a.bin", content: bytes },
      { path: "/b.bin", content: bytes },
      { path: "/x/../y", content: bytes },
    ]);
    expect(uploaded.map((u) => [u.path, u.error?.code])).toEqual([
      ["/memories/a.bin", undefined],
      ["/b.bin", undefined],
      ["/x/../y", "invalid_path"],
    ]);
    expect(Object.keys(memories.snapshot())).toContain("/a.bin");
    const downloaded = await backend.downloadFiles(["/b.bin", "/memories/a.bin", "/memories/no"]);
    expect(downloaded.map((d) => d.path)).toEqual(["/b.bin", "/memories/a.bin", "/memories/no"]);
    expect(downloaded[0]!.content).toEqual(bytes);
    expect(downloaded[1]!.content).toEqual(bytes);
    expect(downloaded[2]!.error?.code).toBe("not_found");
  });
});

describe("CompositeBackend merged listings and searches", () => {
  it("ls('/') shows the route directories among the default's entries, sorted", async () => {
    const { backend } = setup();
    expect(paths(await backend.ls("/"))).toEqual(["/memories/", "/notes/", "/readme.md"]);
  });

  it("a route hides the default's files under its prefix and shows nested mounts", async () => {
    const main = new InMemoryBackend({ files: { "/memories/stale.md": "milk", "/x.md": "milk" } });
    const backend = new CompositeBackend({
      default: main,
      routes: { "/memories/": new InMemoryBackend(), "/mnt/data/": new InMemoryBackend() },
    });
    expect(paths(await backend.ls("/"))).toEqual(["/memories/", "/mnt/", "/x.md"]);
    expect(paths(await backend.ls("/mnt"))).toEqual(["/mnt/data/"]);
    expect((await backend.grep("milk")).matches?.map((m) => m.path)).toEqual(["/x.md"]);
    expect(paths(await backend.glob("*.md"))).toEqual(["/x.md"]);
  });

  it("glob merges every backend with prefixes, sorted by path", async () => {
    const { backend } = setup();
    expect(paths(await backend.glob("*.md"))).toEqual([
      "/memories/people/ana.md",
      "/memories/prefs.md",
      "/notes/todo.md",
      "/readme.md",
    ]);
    expect(paths(await backend.glob("memories/*/*.md"))).toEqual(["/memories/people/ana.md"]);
    expect(paths(await backend.glob("/memories/*.md"))).toEqual(["/memories/prefs.md"]);
    expect(paths(await backend.glob("*.md", { path: "/memories/people" }))).toEqual([
      "/memories/people/ana.md",
    ]);
    const capped = await backend.glob("**", { maxResults: 3 });
    expect(capped.truncated).toBe(true);
    expect(paths(capped)).toEqual([
      "/memories/people/ana.md",
      "/memories/prefs.md",
      "/notes/todo.md",
    ]);
  });

  it("route globs keep the glob contract across the mount prefix", () => {
    expect(routeGlobs("*.md", "/", "/memories")).toEqual(["*.md"]);
    expect(routeGlobs("memories/*.md", "/", "/memories")).toEqual(["/*.md"]);
    expect(routeGlobs("notes/*.md", "/", "/memories")).toEqual([]);
    expect(routeGlobs("**/ana.md", "/", "/a/b")).toEqual(["/**/ana.md"]);
    expect(routeGlobs("**/b/**/x.md", "/", "/a/b")).toEqual(["/**/x.md", "/**/b/**/x.md"]);
    expect(routeGlobs("**", "/", "/.hidden")).toEqual([]);
    expect(routeGlobs("/a/*/x.md", "/a", "/a/b")).toEqual(["/x.md"]);
    expect(routeGlobs("{memories/*.md,notes/*.md}", "/", "/memories")).toEqual(["/*.md"]);
  });

  it("a brace group holding / reaches a route at the depth each alternative names", async () => {
    const { backend } = setup();
    expect(paths(await backend.glob("{memories/prefs.md,readme.md}"))).toEqual([
      "/memories/prefs.md",
      "/readme.md",
    ]);
    expect(paths(await backend.glob("{memories/people,notes}/*.md"))).toEqual([
      "/memories/people/ana.md",
      "/notes/todo.md",
    ]);
  });

  it("grep merges every backend with prefixes and caps the total", async () => {
    const { backend } = setup();
    const all = await backend.grep("milk");
    expect(all.matches).toEqual([
      { path: "/memories/people/ana.md", line: 1, text: "ana drinks milk" },
      { path: "/memories/prefs.md", line: 1, text: "likes milk" },
      { path: "/notes/todo.md", line: 1, text: "buy milk" },
      { path: "/readme.md", line: 1, text: "milk and honey" },
    ]);
    expect(all.truncated).toBeUndefined();
    const capped = await backend.grep("milk", { maxCount: 2 });
    expect(capped.truncated).toBe(true);
    expect(capped.matches?.map((m) => m.path)).toEqual([
      "/memories/people/ana.md",
      "/memories/prefs.md",
    ]);
    const filtered = await backend.grep("milk", { glob: "memories/people/*" });
    expect(filtered.matches?.map((m) => m.path)).toEqual(["/memories/people/ana.md"]);
    const inRoute = await backend.grep("milk", { path: "/memories/people" });
    expect(inRoute.matches?.map((m) => m.path)).toEqual(["/memories/people/ana.md"]);
  });

  it("one failing backend is reported while the others' results are kept", async () => {
    const { main } = setup();
    const broken = withoutDelete(new InMemoryBackend());
    broken.grep = async (): Promise<GrepResult> => ({
      error: { code: "io", message: "store unreachable" },
    });
    broken.glob = async () => {
      throw new Error("connection reset");
    };
    const backend = new CompositeBackend({ default: main, routes: { "/memories/": broken } });
    const grep = await backend.grep("milk");
    expect(grep.matches?.map((m) => m.path)).toEqual(["/notes/todo.md", "/readme.md"]);
    expect(grep.error).toEqual({
      code: "io",
      message: "backend for /memories/ failed: store unreachable",
    });
    expect(grep.partialErrors).toEqual([
      { prefix: "/memories/", error: { code: "io", message: "store unreachable" } },
    ]);
    const glob = await backend.glob("*.md");
    expect(paths(glob)).toEqual(["/notes/todo.md", "/readme.md"]);
    expect(glob.error?.message).toBe("backend for /memories/ failed: threw: connection reset");
  });

  it("a failing default still lists the route directories and says it failed", async () => {
    const broken = withoutDelete(new InMemoryBackend());
    broken.ls = async () => ({ error: { code: "io", message: "disk gone" } });
    const backend = new CompositeBackend({
      default: broken,
      routes: { "/memories/": new InMemoryBackend() },
    });
    const listing = await backend.ls("/");
    expect(paths(listing)).toEqual(["/memories/"]);
    expect(listing.error).toEqual({ code: "io", message: "default backend failed: disk gone" });
  });
});

describe("CompositeBackend capabilities", () => {
  it("execute goes to the default backend and exists only when the default has it", async () => {
    const shell = new RecordingExecBackend();
    const backend = new CompositeBackend({
      default: shell,
      routes: { "/memories/": new InMemoryBackend() },
    });
    expect(typeof backend.execute).toBe("function");
    expect(await backend.execute!("ls /memories")).toMatchObject({ output: "ran ls /memories" });
    expect(shell.commands).toEqual(["ls /memories"]);
    const plain = new CompositeBackend({ default: new InMemoryBackend(), routes: {} });
    expect(typeof plain.execute).toBe("undefined");
    expect("execute" in plain).toBe(false);
  });

  it("delete is routed, and a route whose backend lacks it answers unsupported", async () => {
    const main = new InMemoryBackend({ files: { "/a.md": "a" } });
    const readOnly = withoutDelete(new InMemoryBackend({ files: { "/k.md": "k" } }));
    const backend = new CompositeBackend({ default: main, routes: { "/kb/": readOnly } });
    expect(await backend.delete!("/a.md")).toEqual({ deleted: ["/a.md"] });
    expect(await backend.delete!("/kb/k.md")).toEqual({
      error: { code: "unsupported", message: "deletion is not supported for /kb/k.md" },
    });
    const none = new CompositeBackend({
      default: withoutDelete(new InMemoryBackend()),
      routes: { "/kb/": readOnly },
    });
    expect("delete" in none).toBe(false);
  });

  it("deleting a mount's directory empties the route and keeps the mount", async () => {
    const { memories, backend } = setup();
    expect((await backend.delete!("/memories")).deleted?.sort()).toEqual([
      "/memories/people/ana.md",
      "/memories/prefs.md",
    ]);
    expect(memories.snapshot()).toEqual({});
    expect(paths(await backend.ls("/"))).toContain("/memories/");
    expect((await backend.delete!("/memories/")).error?.code).toBe("not_found");
  });
});

describe("CompositeBackend delete through mounts", () => {
  it("deleting a directory that holds a mount also empties the mount, and lists every file", async () => {
    const main = new InMemoryBackend({ files: { "/work/a.md": "a", "/work/b/c.md": "c" } });
    const mounted = new InMemoryBackend({ files: { "/n.md": "n", "/deep/m.md": "m" } });
    const backend = new CompositeBackend({ default: main, routes: { "/work/notes/": mounted } });
    expect((await backend.delete!("/work")).deleted?.sort()).toEqual([
      "/work/a.md",
      "/work/b/c.md",
      "/work/notes/deep/m.md",
      "/work/notes/n.md",
    ]);
    expect(mounted.snapshot()).toEqual({});
    expect((await backend.glob("**", { path: "/work" })).files ?? []).toEqual([]);
  });

  it("a directory holding only a mount is deleted through it; nothing at all is not_found", async () => {
    const mounted = new InMemoryBackend({ files: { "/n.md": "n" } });
    const backend = new CompositeBackend({
      default: new InMemoryBackend(),
      routes: { "/work/notes/": mounted },
    });
    expect(await backend.delete!("/work")).toEqual({ deleted: ["/work/notes/n.md"] });
    expect((await backend.delete!("/work")).error?.code).toBe("not_found");
  });

  it("a mount that cannot delete is reported, never answered as deleted", async () => {
    const readOnly = withoutDelete(new InMemoryBackend({ files: { "/k.md": "k" } }));
    const backend = new CompositeBackend({
      default: new InMemoryBackend({ files: { "/docs/a.md": "a" } }),
      routes: { "/docs/kb/": readOnly },
    });
    const result = await backend.delete!("/docs");
    expect(result.deleted).toEqual(["/docs/a.md"]);
    expect(result.error).toEqual({
      code: "unsupported",
      message: "backend for /docs/kb/ failed: deletion is not supported for /docs/kb",
    });
    expect((await backend.read("/docs/kb/k.md")).lines).toEqual(["k"]);
  });
});

describe("CompositeBackend configuration", () => {
  const mem = () => new InMemoryBackend();

  it.each([
    ["memories/", "must start and end with /"],
    ["/memories", "must start and end with /"],
    ["/", "cannot be /"],
    ["/a//b/", 'canonically as "/a/b/"'],
    ["/a/../b/", "path traversal"],
  ])("route key %s is refused", (prefix, why) => {
    const build = () => new CompositeBackend({ default: mem(), routes: { [prefix]: mem() } });
    expect(build).toThrow(ConfigurationError);
    expect(build).toThrow(why);
  });

  it("a factory function as a route or default is refused with what to do", () => {
    const factory = () => mem();
    try {
      new CompositeBackend({ default: mem(), routes: { "/m/": factory as never } });
      expect.unreachable();
    } catch (e) {
      expect(ConfigurationError.isInstance(e) && e.code).toBe("BACKEND_FACTORY");
      expect((e as Error).message).toContain('CompositeBackend routes["/m/"]');
      expect((e as Error).message).toContain("new StateBackend()");
    }
    expect(() => new CompositeBackend({ default: factory as never, routes: {} })).toThrow(
      "CompositeBackend default must be a backend instance, not a function",
    );
  });
});

describe("assertBackendInstance", () => {
  it("refuses a backend class passed without new, naming the fix", () => {
    expect(() => assertBackendInstance(InMemoryBackend, "backend")).toThrow(
      "you passed the class InMemoryBackend itself; pass an instance: new InMemoryBackend(...)",
    );
  });

  it("refuses an object missing protocol methods, naming them", () => {
    try {
      assertBackendInstance({ ls() {}, read() {}, execute: "yes" }, "backend");
      expect.unreachable();
    } catch (e) {
      expect(ConfigurationError.isInstance(e) && e.code).toBe("INVALID_BACKEND");
      expect((e as ConfigurationError).details.missing).toEqual([
        "write",
        "edit",
        "grep",
        "glob",
        "uploadFiles",
        "downloadFiles",
      ]);
      expect((e as Error).message).toContain("execute present but not a function");
    }
    expect(() => assertBackendInstance(null, "backend")).toThrow("got null");
  });

  it("accepts a backend instance", () => {
    expect(() => assertBackendInstance(new InMemoryBackend(), "backend")).not.toThrow();
  });
});

describe("the delete tool over a composite with a mount that cannot delete", () => {
  it("says what failed and that some files were deleted", async () => {
    const { fsTools } = await import("../../filesystem/tools/fs-harness.js");
    const backend = new CompositeBackend({
      default: new InMemoryBackend({ files: { "/docs/a.md": "a" } }),
      routes: { "/docs/kb/": withoutDelete(new InMemoryBackend({ files: { "/k.md": "k" } })) },
    });
    const { fails } = fsTools({ backend });
    expect(await fails("delete", { file_path: "/docs" })).toBe(
      "Error: backend for /docs/kb/ failed: deletion is not supported for /docs/kb (/docs). 1 file was deleted before that.",
    );
  });
});
