import { StateGraph, StateSchema } from "@langchain/langgraph";
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import { StoreBackend, type StoreBackendContext } from "delve";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { testPostgres, uniqueSchema } from "../../helpers/postgres.js";

const pg = await testPostgres();
afterAll(() => pg?.stop());

describe.skipIf(!pg)("StoreBackend on PostgreSQL (PostgresStore, a real server)", () => {
  const schema = uniqueSchema("store");
  const opened: PostgresStore[] = [];
  const connect = async () => {
    const store = PostgresStore.fromConnString(pg!.url, { schema });
    await store.setup();
    opened.push(store);
    return store;
  };
  let store: PostgresStore;
  let n = 0;
  // Each test works in its own namespace of one shared schema.
  const fresh = () => `run${n++}`;
  const inFreshNamespace = () => {
    const namespace = ["pg", fresh()];
    return new StoreBackend({ namespace: () => namespace, store });
  };
  beforeAll(async () => {
    store = await connect();
  });
  afterAll(async () => {
    for (const s of opened) await s.stop();
  });

  it("writes, edits, lists, searches and deletes files", async () => {
    const backend = inFreshNamespace();
    expect((await backend.write("/notes/a.md", "status: open\n")).created).toBe(true);
    expect((await backend.edit("/notes/a.md", "open", "closed")).occurrences).toBe(1);
    expect((await backend.read("/notes/a.md")).lines).toEqual(["status: closed"]);
    expect((await backend.ls("/")).files).toEqual([
      { path: "/notes/", isDir: true, modifiedAt: expect.any(String) },
    ]);
    expect((await backend.grep("closed")).matches).toEqual([
      { path: "/notes/a.md", line: 1, text: "status: closed" },
    ]);
    expect((await backend.delete("/notes")).deleted).toEqual(["/notes/a.md"]);
    expect((await backend.ls("/")).files).toEqual([]);
  });

  it("users whose ids share a prefix (alice, alice2) do not see each other's files", async () => {
    const tenant = fresh();
    const as = (user: string) => new StoreBackend({ namespace: () => ["pg", tenant, user], store });
    await as("alice").write("/mine.md", "alice");
    await as("alice2").write("/theirs.md", "alice2");
    expect((await as("alice").glob("**")).files!.map((f) => f.path)).toEqual(["/mine.md"]);
    expect((await as("alice").grep("alice2")).matches).toEqual([]);
    expect((await as("alice2").ls("/")).files!.map((f) => f.path)).toEqual(["/theirs.md"]);
  });

  it("ls, glob and grep see all 25 files, not the first 10", async () => {
    const backend = inFreshNamespace();
    const files = Array.from({ length: 25 }, (_, i) => ({
      path: `/docs/f${i}.md`,
      content: new TextEncoder().encode(`needle ${i}\n`),
    }));
    expect((await backend.uploadFiles(files)).filter((r) => r.error)).toEqual([]);
    expect((await backend.ls("/docs")).files).toHaveLength(25);
    expect((await backend.glob("*.md")).files).toHaveLength(25);
    expect((await backend.grep("needle")).matches).toHaveLength(25);
  });

  it("files outlive the connection: a new store on the same database reads them", async () => {
    const namespace = () => ["pg", "restart"];
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 255]);
    const first = await connect();
    await new StoreBackend({ namespace, store: first }).uploadFiles([
      { path: "/pic.png", content: bytes },
    ]);
    await first.stop();
    const second = new StoreBackend({ namespace, store: await connect() });
    const [download] = await second.downloadFiles(["/pic.png"]);
    expect(Array.from(download!.content!)).toEqual(Array.from(bytes));
    expect((await second.read("/pic.png")).kind).toBe("binary");
  });

  it("a label PostgresStore refuses (a SQL LIKE wildcard) is stored escaped and works", async () => {
    const namespace = ["pg", fresh(), "user_1"];
    const backend = new StoreBackend({ namespace: () => namespace, store });
    expect((await backend.write("/a.md", "x")).error).toBeUndefined();
    expect((await backend.read("/a.md")).lines).toEqual(["x"]);
    const escaped = [...namespace.slice(0, 2), "user~5F1"];
    expect((await store.get(escaped, "/a.md"))?.value.content).toBe("x");
  });

  it("inside runs using the run's store, each authenticated user gets their own files", async () => {
    const tenant = fresh();
    const backend = new StoreBackend({
      namespace: (ctx: StoreBackendContext) => ["pg", tenant, ctx.user?.id ?? "local"],
    });
    const graph = (work: () => Promise<unknown>) =>
      new StateGraph(new StateSchema({ out: z.string().default("") }))
        .addNode("work", async () => ({ out: JSON.stringify(await work()) }))
        .addEdge("__start__", "work")
        .compile({ store });
    const as = (user: string | undefined, work: () => Promise<unknown>) =>
      graph(work).invoke(
        {},
        { configurable: user ? { langgraph_auth_user: { identity: user } } : {} },
      );
    await as("dana", () => backend.write("/d.md", "dana's"));
    await as(undefined, () => backend.write("/l.md", "local"));
    const seenByEve = JSON.parse((await as("eve", () => backend.glob("**"))).out);
    expect(seenByEve.files).toEqual([]);
    const seenByDana = JSON.parse((await as("dana", () => backend.read("/d.md"))).out);
    expect(seenByDana.lines).toEqual(["dana's"]);
    expect((await store.get(["pg", tenant, "local"], "/l.md"))?.value.content).toBe("local");
  });
});
