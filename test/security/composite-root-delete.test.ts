import { CompositeBackend, InMemoryBackend } from "delve";
import { describe, expect, it } from "vitest";

// Deleting the composite's root used to empty every mounted route and only then answer
// "refusing to delete the root directory": the refusal must come before anything is touched.

function setup() {
  const main = new InMemoryBackend({ files: { "/readme.md": "hi\n", "/notes/a.md": "a\n" } });
  const memories = new InMemoryBackend({ files: { "/prefs.md": "p\n", "/people/ana.md": "x\n" } });
  const deep = new InMemoryBackend({ files: { "/kept.md": "k\n" } });
  const backend = new CompositeBackend({
    default: main,
    routes: { "/memories/": memories, "/data/deep/": deep },
  });
  const contents = () => ({
    main: Object.keys(main.snapshot()).sort(),
    memories: Object.keys(memories.snapshot()).sort(),
    deep: Object.keys(deep.snapshot()).sort(),
  });
  return { backend, contents };
}

describe("CompositeBackend refuses to delete its root before touching any route", () => {
  it.each(["/", "//", "/./", ".", "///./"])("delete(%j) deletes nothing anywhere", async (path) => {
    const { backend, contents } = setup();
    const before = contents();
    const result = await backend.delete!(path);
    expect(result.error?.code).toBe("invalid_path");
    expect(result.error?.message).toContain("refusing to delete the root directory");
    expect(result.deleted ?? []).toEqual([]);
    expect(contents()).toEqual(before);
  });

  it.each(["/a/..", "/memories/..", "/memories/../"])(
    "delete(%j), a path that climbs back to the root, is refused and deletes nothing",
    async (path) => {
      const { backend, contents } = setup();
      const before = contents();
      expect((await backend.delete!(path)).error?.code).toBe("invalid_path");
      expect(contents()).toEqual(before);
    },
  );

  it("deleting a mount point empties only that route; the mount and the other routes stay", async () => {
    const { backend, contents } = setup();
    const result = await backend.delete!("/memories/");
    expect(result.error).toBeUndefined();
    expect(result.deleted?.sort()).toEqual(["/memories/people/ana.md", "/memories/prefs.md"]);
    expect(contents()).toEqual({
      main: ["/notes/a.md", "/readme.md"],
      memories: [],
      deep: ["/kept.md"],
    });
    expect((await backend.ls("/")).files?.map((f) => f.path)).toContain("/memories/");
  });

  it("deleting a directory above a mount empties the mount below it and nothing else", async () => {
    const { backend, contents } = setup();
    const result = await backend.delete!("/data");
    expect(result.deleted).toEqual(["/data/deep/kept.md"]);
    expect(contents().main).toEqual(["/notes/a.md", "/readme.md"]);
    expect(contents().memories).toEqual(["/people/ana.md", "/prefs.md"]);
  });
});
