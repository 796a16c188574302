import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { HumanMessage, ToolMessage } from "@langchain/core/messages";
import { type BaseStore, InMemoryStore, StateGraph, StateSchema } from "@langchain/langgraph";
import {
  ConfigurationError,
  createDeepAgent,
  ScriptedChatModel,
  StoreBackend,
  type StoreBackendContext,
} from "delve";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { SqliteStore } from "../../../src/stores/sqlite-store.js";

const ROOT = resolve(import.meta.dirname, "../../..");
const perUser = (ctx: StoreBackendContext) => ["users", ctx.user?.id ?? "local"];

let dir: string;
const stores: SqliteStore[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "delve-store-backend-"));
});
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  rmSync(dir, { recursive: true, force: true });
});
const sqlite = (path = join(dir, "store.db")) => {
  const store = SqliteStore.open(path);
  stores.push(store);
  return store;
};

/** Runs `body` inside a real LangGraph run with this store, user, thread and context. */
async function inRun<T>(
  store: BaseStore,
  run: { user?: string; threadId?: string; context?: Record<string, unknown> },
  body: () => Promise<T>,
): Promise<T> {
  let out: T | undefined;
  const graph = new StateGraph(new StateSchema({ done: z.boolean().default(false) }))
    .addNode("work", async () => {
      out = await body();
      return { done: true };
    })
    .addEdge("__start__", "work")
    .compile({ store });
  const configurable: Record<string, unknown> = {};
  if (run.user) configurable.langgraph_auth_user = { identity: run.user, is_authenticated: true };
  if (run.threadId) configurable.thread_id = run.threadId;
  await graph.invoke({}, { configurable, context: run.context });
  return out as T;
}

describe("StoreBackend construction", () => {
  it("without a namespace is a MISSING_NAMESPACE error that shows what to pass", () => {
    let caught: unknown;
    try {
      new StoreBackend({} as never);
    } catch (error) {
      caught = error;
    }
    expect(ConfigurationError.isInstance(caught)).toBe(true);
    expect((caught as ConfigurationError).code).toBe("MISSING_NAMESPACE");
    expect((caught as Error).message).toContain(
      'namespace: (ctx) => ["users", ctx.user?.id ?? "local"]',
    );
  });

  it("refuses a namespace that is not a function, an unknown option and a non-store", () => {
    const code = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return (error as ConfigurationError).code;
      }
      return "no error";
    };
    expect(code(() => new StoreBackend({ namespace: ["shared"] } as never))).toBe(
      "INVALID_NAMESPACE",
    );
    expect(code(() => new StoreBackend({ namespace: perUser, namespaces: 1 } as never))).toBe(
      "UNKNOWN_OPTION",
    );
    expect(code(() => new StoreBackend({ namespace: perUser, store: {} as never }))).toBe(
      "INVALID_STORE",
    );
  });
});

describe("StoreBackend context and store", () => {
  it("outside a run it works with no user: namespace gets an empty context", async () => {
    const seen: StoreBackendContext[] = [];
    const store = new InMemoryStore();
    const backend = new StoreBackend({
      namespace: (ctx) => {
        seen.push(ctx);
        return perUser(ctx);
      },
      store,
    });
    expect((await backend.write("/a.md", "hi")).error).toBeUndefined();
    expect(seen[0]).toEqual({});
    expect((await store.get(["users", "local"], "/a.md"))?.value.content).toBe("hi");
  });

  it("inside a run, namespace sees the user, thread and runtime context, and the run's store is used", async () => {
    const store = new InMemoryStore();
    const seen: StoreBackendContext[] = [];
    const backend = new StoreBackend({
      namespace: (ctx) => {
        seen.push(ctx);
        return ["tenants", String(ctx.context?.tenant), ctx.user?.id ?? "local"];
      },
    });
    const result = await inRun(
      store,
      { user: "alice", threadId: "t-1", context: { tenant: "acme" } },
      () => backend.write("/notes/a.md", "from alice"),
    );
    expect(result.error).toBeUndefined();
    expect(seen[0]).toMatchObject({
      user: { id: "alice", identity: "alice", is_authenticated: true },
      threadId: "t-1",
      context: { tenant: "acme" },
    });
    const item = await store.get(["tenants", "acme", "alice"], "/notes/a.md");
    expect(item?.value).toMatchObject({ content: "from alice", encoding: "utf-8" });
  });

  it("a SqliteStore serving runs stays open from one run to the next", async () => {
    const store = sqlite();
    const backend = new StoreBackend({ namespace: perUser });
    await inRun(store, { user: "ana" }, () => backend.write("/a.md", "first run"));
    const read = await inRun(store, { user: "ana" }, () => backend.read("/a.md"));
    expect(read.lines).toEqual(["first run"]);
    expect(store.closed).toBe(false);
  });

  it("inside a run with no authenticated user, the fallback namespace is used", async () => {
    const store = new InMemoryStore();
    const backend = new StoreBackend({ namespace: perUser });
    await inRun(store, { threadId: "t-2" }, () => backend.write("/x.md", "local"));
    expect(await store.get(["users", "local"], "/x.md")).not.toBeNull();
  });

  it("with no store anywhere, every operation is an unsupported error naming where to pass one", async () => {
    const backend = new StoreBackend({ namespace: perUser });
    const results = [
      await backend.ls("/"),
      await backend.read("/a.md"),
      await backend.write("/a.md", "x"),
      await backend.grep("x"),
      await backend.glob("*"),
      (await backend.uploadFiles([{ path: "/b.bin", content: new Uint8Array([1]) }]))[0]!,
    ];
    for (const result of results) {
      expect(result.error?.code).toBe("unsupported");
      expect(result.error?.message).toContain("pass `store` to createDeepAgent or to StoreBackend");
    }
  });

  it("an invalid namespace, or a namespace function that throws, is an error result", async () => {
    const store = new InMemoryStore();
    for (const namespace of [
      () => ["users", "a.b"],
      () => [],
      () => ["users", ""],
      () => ["users", 7] as never,
      () => ["langgraph", "x"],
      () => {
        throw new Error("no tenant");
      },
    ]) {
      const backend = new StoreBackend({ namespace, store });
      const result = await backend.write("/a.md", "x");
      expect(result.error?.code, String(namespace)).toBe("io");
      expect((await backend.ls("/")).error?.code).toBe("io");
    }
  });
});

describe("StoreBackend isolation", () => {
  it("two users in runs do not see each other's files", async () => {
    const store = new InMemoryStore();
    const backend = new StoreBackend({ namespace: perUser });
    await inRun(store, { user: "alice" }, () => backend.write("/secret.md", "alice only"));
    const bob = await inRun(store, { user: "bob" }, async () => ({
      ls: await backend.ls("/"),
      read: await backend.read("/secret.md"),
      grep: await backend.grep("alice"),
      glob: await backend.glob("**"),
    }));
    expect(bob.ls.files).toEqual([]);
    expect(bob.read.error?.code).toBe("not_found");
    expect(bob.grep.matches).toEqual([]);
    expect(bob.glob.files).toEqual([]);
    const alice = await inRun(store, { user: "alice" }, () => backend.read("/secret.md"));
    expect(alice.lines).toEqual(["alice only"]);
  });

  it("a namespace does not see a child namespace's files, nor does a deletion reach them", async () => {
    const store = new InMemoryStore();
    const parent = new StoreBackend({ namespace: () => ["users", "ana"], store });
    const child = new StoreBackend({ namespace: () => ["users", "ana", "private"], store });
    await child.write("/diary.md", "private");
    await child.write("/child-only.md", "private too");
    await parent.write("/diary.md", "public");
    await parent.write("/other/x.md", "x");
    expect((await parent.glob("**")).files!.map((f) => f.path)).toEqual([
      "/diary.md",
      "/other/x.md",
    ]);
    expect((await parent.grep("private")).matches).toEqual([]);
    expect((await parent.read("/child-only.md")).error?.code).toBe("not_found");
    expect((await parent.delete("/")).error?.code).toBe("invalid_path");
    await parent.delete("/diary.md");
    expect((await child.read("/diary.md")).lines).toEqual(["private"]);
  });
});

describe("StoreBackend listings page through the store", () => {
  for (const [name, make] of [
    ["InMemoryStore", () => new InMemoryStore()],
    ["SqliteStore", () => sqlite()],
  ] as const) {
    it(`ls, glob and grep see all 25 files on ${name}, not the first 10`, async () => {
      const backend = new StoreBackend({ namespace: () => ["paging"], store: make() });
      for (let i = 0; i < 25; i++) {
        await backend.write(`/docs/f${String(i).padStart(2, "0")}.md`, `needle ${i}\n`);
      }
      expect((await backend.ls("/docs")).files).toHaveLength(25);
      expect((await backend.glob("*.md")).files).toHaveLength(25);
      expect((await backend.grep("needle")).matches).toHaveLength(25);
      expect((await backend.delete("/docs")).deleted).toHaveLength(25);
    });
  }

  it("a namespace larger than one search page (1,000 items) is listed completely", async () => {
    const backend = new StoreBackend({ namespace: () => ["big"], store: new InMemoryStore() });
    const files = Array.from({ length: 2_345 }, (_, i) => ({
      path: `/d${i % 7}/f${i}.txt`,
      content: new TextEncoder().encode(`row ${i}\n`),
    }));
    const uploaded = await backend.uploadFiles(files);
    expect(uploaded.filter((r) => r.error)).toEqual([]);
    expect((await backend.glob("**", { maxResults: 5_000 })).files).toHaveLength(2_345);
    expect((await backend.grep("row ", { maxCount: 5_000 })).matches).toHaveLength(2_345);
    expect((await backend.ls("/")).files).toHaveLength(7);
  });
});

describe("StoreBackend files", () => {
  it("keeps FileData values: text as utf-8, bytes as base64, createdAt kept on overwrite", async () => {
    const store = new InMemoryStore();
    const backend = new StoreBackend({ namespace: () => ["f"], store });
    await backend.write("/a.txt", "one");
    const first = (await store.get(["f"], "/a.txt"))!.value;
    expect(Object.keys(first).sort()).toEqual(["content", "createdAt", "encoding", "modifiedAt"]);
    await new Promise((r) => setTimeout(r, 5));
    await backend.write("/a.txt", "two");
    const second = (await store.get(["f"], "/a.txt"))!.value;
    expect(second.createdAt).toBe(first.createdAt);
    expect(second.modifiedAt > first.modifiedAt).toBe(true);
    const bytes = new Uint8Array([0xff, 0x00, 0x10, 0x80]);
    await backend.uploadFiles([{ path: "/b.bin", content: bytes }]);
    const stored = (await store.get(["f"], "/b.bin"))!.value;
    expect(stored).toMatchObject({
      encoding: "base64",
      content: Buffer.from(bytes).toString("base64"),
    });
  });

  it("refuses writing under a file and reading a directory, like the other backends", async () => {
    const backend = new StoreBackend({ namespace: () => ["f"], store: new InMemoryStore() });
    await backend.write("/a.txt", "x");
    await backend.write("/dir/b.txt", "y");
    expect((await backend.write("/a.txt/c.txt", "z")).error?.code).toBe("not_a_directory");
    expect((await backend.write("/dir", "z")).error?.code).toBe("is_directory");
    expect((await backend.read("/dir")).error?.code).toBe("is_directory");
    expect((await backend.ls("/a.txt")).error?.code).toBe("not_a_directory");
    expect((await backend.delete("/")).error?.code).toBe("invalid_path");
  });

  it("ignores items of the namespace that are not files, and reads deepagents' line arrays", async () => {
    const store = new InMemoryStore();
    await store.put(["mixed"], "settings", { theme: "dark" });
    await store.put(["mixed"], "/legacy.md", {
      content: ["line 1", "line 2"],
      created_at: "x",
      modified_at: "y",
    });
    const backend = new StoreBackend({ namespace: () => ["mixed"], store });
    expect((await backend.ls("/")).files!.map((f) => f.path)).toEqual(["/legacy.md"]);
    expect((await backend.read("/legacy.md")).lines).toEqual(["line 1", "line 2"]);
  });

  it("grep stops at maxCount across files and says the result is truncated", async () => {
    const backend = new StoreBackend({ namespace: () => ["g"], store: new InMemoryStore() });
    for (let i = 0; i < 4; i++) await backend.write(`/f${i}.txt`, "hit\nhit\nhit\n");
    const capped = await backend.grep("hit", { maxCount: 7 });
    expect(capped.matches).toHaveLength(7);
    expect(capped.truncated).toBe(true);
    expect(capped.matches!.at(-1)).toEqual({ path: "/f2.txt", line: 1, text: "hit" });
  });

  it("a store that fails turns into an io error result, not a crash", async () => {
    const store = sqlite();
    const backend = new StoreBackend({ namespace: () => ["f"], store });
    store.close();
    const result = await backend.write("/a.md", "x");
    expect(result.error?.code).toBe("io");
    expect(result.error?.message).toMatch(/closed/);
  });
});

describe("StoreBackend on SqliteStore across a process restart", () => {
  it("files written by one node process are read by another", () => {
    const path = join(dir, "files.db");
    const script = (body: string) =>
      execFileSync(
        process.execPath,
        [
          "--import",
          "tsx",
          "--input-type=module",
          "-e",
          `const { SqliteStore } = await import(${JSON.stringify(join(ROOT, "src/stores/sqlite-store.ts"))});
           const { StoreBackend } = await import(${JSON.stringify(join(ROOT, "src/backends/store/store.ts"))});
           const store = SqliteStore.open(${JSON.stringify(path)});
           const backend = new StoreBackend({ namespace: () => ["users", "ana"], store });
           ${body}
           store.close();`,
        ],
        { encoding: "utf8", timeout: 30_000 },
      );
    script(`
      await backend.write("/notes/plan.md", "step 1\\nstep 2\\n");
      await backend.uploadFiles([{ path: "/img/dot.png", content: new Uint8Array([137, 80, 78, 71, 0]) }]);
    `);
    const out = script(`
      const read = await backend.read("/notes/plan.md");
      const [png] = await backend.downloadFiles(["/img/dot.png"]);
      const ls = await backend.ls("/");
      console.log(JSON.stringify({ lines: read.lines, png: Array.from(png.content), ls: ls.files.map((f) => f.path) }));
    `);
    expect(JSON.parse(out)).toEqual({
      lines: ["step 1", "step 2"],
      png: [137, 80, 78, 71, 0],
      ls: ["/img/", "/notes/"],
    });
  });
});

describe("StoreBackend in a deep agent", () => {
  it("the agent's file tools write into the run's store under the authenticated user", async () => {
    const store = new InMemoryStore();
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "write_file", args: { file_path: "/memo.md", content: "remember" } }] },
      { toolCalls: [{ name: "ls", args: { path: "/" } }] },
      "done",
    ]);
    const agent = createDeepAgent({
      model,
      store,
      backend: new StoreBackend({ namespace: perUser }),
    });
    const out = await agent.invoke(
      { messages: [new HumanMessage("save a memo")] },
      { configurable: { langgraph_auth_user: { identity: "carol" } } },
    );
    expect((await store.get(["users", "carol"], "/memo.md"))?.value.content).toBe("remember");
    const listing = out.messages.filter((m: unknown) => m instanceof ToolMessage).at(-1);
    expect(String(listing?.content)).toContain("/memo.md");
    expect(await store.get(["users", "local"], "/memo.md")).toBeNull();
  });
});
