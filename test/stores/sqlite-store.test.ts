import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type BaseStore, InMemoryStore, type Item, type Operation } from "@langchain/langgraph";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SqliteStore } from "../../src/stores/sqlite-store.js";

const MODULE = resolve(import.meta.dirname, "../../src/stores/sqlite-store.ts");

let dir: string;
const opened: SqliteStore[] = [];
const open = (path = join(dir, "store.db")) => {
  const store = SqliteStore.open(path);
  opened.push(store);
  return store;
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "delve-sqlite-store-"));
});
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs an ES module snippet in a fresh `node` process that imports SqliteStore. */
function inChildProcess(body: string): string {
  const code = `const { SqliteStore } = await import(${JSON.stringify(MODULE)});\n${body}`;
  return execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], {
    encoding: "utf8",
    timeout: 30_000,
  });
}

const plain = (items: Array<Item | null>) =>
  items.map((i) => (i ? { namespace: i.namespace, key: i.key, value: i.value } : null));
const sorted = (items: Item[]) =>
  plain(items).sort((a, b) =>
    JSON.stringify([a!.namespace, a!.key]) < JSON.stringify([b!.namespace, b!.key]) ? -1 : 1,
  );

async function seed(store: BaseStore): Promise<void> {
  await store.put(["docs", "ana"], "a", { kind: "note", score: 3, tags: ["x"] });
  await store.put(["docs", "ana"], "b", { kind: "todo", score: 7 });
  await store.put(["docs", "ana", "old"], "c", { kind: "note", score: 1 });
  await store.put(["docs", "bo"], "d", { kind: "note", score: 9 });
  await store.put(["docs", "anna"], "e", { kind: "note", score: 5 });
  await store.put(["docs", "ana-x"], "f", { kind: "todo", score: 4 });
  await store.put(["prefs", "ana", "v1"], "theme", { kind: "pref", value: "dark" });
  await store.put(["prefs", "bo", "v1"], "theme", { kind: "pref", value: "light" });
  await store.put(["prefs", "bo", "v2"], "theme", { kind: "pref", value: "auto" });
}

describe("SqliteStore behaves like InMemoryStore", () => {
  it("get returns the same items, and null for a missing key", async () => {
    const [mem, sql] = [new InMemoryStore(), open()];
    await Promise.all([seed(mem), seed(sql)]);
    for (const [ns, key] of [
      [["docs", "ana"], "a"],
      [["prefs", "bo", "v2"], "theme"],
      [["docs", "ana"], "missing"],
      [["nowhere"], "a"],
    ] as const) {
      expect(plain([await sql.get([...ns], key)])).toEqual(plain([await mem.get([...ns], key)]));
    }
  });

  it("search by prefix, filter and paging selects the same items", async () => {
    const [mem, sql] = [new InMemoryStore(), open()];
    await Promise.all([seed(mem), seed(sql)]);
    const cases: Array<[string[], Record<string, unknown> | undefined]> = [
      [[], undefined],
      [["docs"], undefined],
      [["docs", "ana"], undefined], // includes the child namespace, not ["docs","anna"]
      [["docs"], { kind: "note" }],
      [["docs"], { score: { $gt: 3 } }],
      [["docs"], { score: { $gte: 3, $lt: 9 } }],
      [["docs"], { kind: { $ne: "note" } }],
      [["docs"], { kind: { $in: ["todo", "pref"] } }],
      [[], { kind: { $nin: ["note"] } }],
      [["prefs"], { value: "light", kind: "pref" }],
      [["prefs"], { value: "nothing" }],
    ];
    for (const [prefix, filter] of cases) {
      const want = sorted(await mem.search(prefix, { filter, limit: 100 }));
      expect(
        sorted(await sql.search(prefix, { filter, limit: 100 })),
        JSON.stringify([prefix, filter]),
      ).toEqual(want);
      // Paging in threes yields the same set with no duplicates.
      const paged: Item[] = [];
      for (let offset = 0; ; offset += 3) {
        const page = await sql.search(prefix, { filter, limit: 3, offset });
        paged.push(...page);
        if (page.length < 3) break;
      }
      expect(sorted(paged)).toEqual(want);
    }
  });

  it("search returns 10 items unless given a limit, like InMemoryStore", async () => {
    const [mem, sql] = [new InMemoryStore(), open()];
    for (const store of [mem, sql]) {
      for (let i = 0; i < 25; i++) await store.put(["many"], `k${i}`, { i });
    }
    expect(await sql.search(["many"])).toHaveLength((await mem.search(["many"])).length);
    expect(await sql.search(["many"])).toHaveLength(10);
    expect(await sql.search(["many"], { limit: 100 })).toHaveLength(25);
    expect(await sql.search(["many"], { limit: 10, offset: 20 })).toHaveLength(5);
    // The same default holds for a raw batch operation that names no limit.
    const [raw] = await sql.batch([{ namespacePrefix: ["many"] }]);
    const [rawMem] = await mem.batch([{ namespacePrefix: ["many"] }]);
    expect(raw).toHaveLength(rawMem.length);
  });

  it("listNamespaces with prefix, suffix, wildcards and maxDepth lists the same namespaces", async () => {
    const [mem, sql] = [new InMemoryStore(), open()];
    await Promise.all([seed(mem), seed(sql)]);
    // InMemoryStore orders by localeCompare of "a:b" strings (so "ana-x" before "ana", "old");
    // SqliteStore orders label by label, which keeps a namespace next to its children.
    const byLabels = (list: string[][]) =>
      [...list].sort((a, b) => {
        for (let i = 0; i < Math.min(a.length, b.length); i++) {
          if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
        }
        return a.length - b.length;
      });
    const cases = [
      {},
      { prefix: ["docs"] },
      { prefix: ["docs", "ana"] },
      { prefix: ["prefs", "*", "v1"] },
      { suffix: ["v1"] },
      { suffix: ["*", "v2"] },
      { prefix: ["prefs"], suffix: ["v2"] },
      { maxDepth: 1 },
      { prefix: ["docs"], maxDepth: 2 },
      { prefix: ["nothing"] },
    ];
    for (const options of cases) {
      expect(await sql.listNamespaces(options), JSON.stringify(options)).toEqual(
        byLabels(await mem.listNamespaces(options)),
      );
    }
    expect(await sql.listNamespaces({ prefix: ["docs"] })).toEqual([
      ["docs", "ana"],
      ["docs", "ana", "old"],
      ["docs", "ana-x"],
      ["docs", "anna"],
      ["docs", "bo"],
    ]);
    const all = await sql.listNamespaces({ limit: 100 });
    expect(await sql.listNamespaces({ limit: 2, offset: 1 })).toEqual(all.slice(1, 3));
  });

  it("invalid namespaces are refused by both", async () => {
    const [mem, sql] = [new InMemoryStore(), open()];
    for (const store of [mem, sql]) {
      await expect(store.put(["a.b"], "k", { x: 1 })).rejects.toThrow();
      await expect(store.put([], "k", { x: 1 })).rejects.toThrow();
      await expect(store.put(["a", ""], "k", { x: 1 })).rejects.toThrow();
      await expect(store.get(["a:b"], "k")).rejects.toThrow();
    }
  });

  it("a query is ignored: results come back unscored, as from an InMemoryStore without an index", async () => {
    const [mem, sql] = [new InMemoryStore(), open()];
    await Promise.all([seed(mem), seed(sql)]);
    const got = await sql.search(["docs"], { query: "anything", limit: 100 });
    expect(sorted(got)).toEqual(
      sorted(await mem.search(["docs"], { query: "anything", limit: 100 })),
    );
    expect(got.every((item) => (item as { score?: number }).score === undefined)).toBe(true);
  });
});

describe("SqliteStore items", () => {
  it("keep createdAt across updates and advance updatedAt", async () => {
    const store = open();
    await store.put(["t"], "k", { v: 1 });
    const first = (await store.get(["t"], "k"))!;
    await new Promise((r) => setTimeout(r, 5));
    await store.put(["t"], "k", { v: 2 });
    const second = (await store.get(["t"], "k"))!;
    expect(second.value).toEqual({ v: 2 });
    expect(second.createdAt.getTime()).toBe(first.createdAt.getTime());
    expect(second.updatedAt.getTime()).toBeGreaterThan(first.updatedAt.getTime());
    expect(first.createdAt).toBeInstanceOf(Date);
  });

  it("a null value deletes the item, and an emptied namespace is no longer listed", async () => {
    const store = open();
    await store.put(["gone"], "k", { v: 1 });
    await store.put(["kept"], "k", { v: 1 });
    await store.delete(["gone"], "k");
    expect(await store.get(["gone"], "k")).toBeNull();
    expect(await store.listNamespaces()).toEqual([["kept"]]);
  });

  it("values come back as copies: changing a result does not change the store", async () => {
    const store = open();
    await store.put(["t"], "k", { list: [1] });
    const item = (await store.get(["t"], "k"))!;
    item.value.list.push(2);
    expect((await store.get(["t"], "k"))!.value).toEqual({ list: [1] });
  });

  it("filters compare nested objects by content", async () => {
    const store = open();
    await store.put(["t"], "k", { owner: { id: 7, name: "ana" } });
    expect(await store.search(["t"], { filter: { owner: { name: "ana", id: 7 } } })).toHaveLength(
      1,
    );
    expect(await store.search(["t"], { filter: { owner: { id: 7 } } })).toHaveLength(0);
  });

  it("a batch runs in order inside one transaction", async () => {
    const store = open();
    const operations: Operation[] = [
      { namespace: ["b"], key: "k", value: { v: 1 } },
      { namespace: ["b"], key: "k" },
      { namespacePrefix: ["b"], limit: 10, offset: 0 },
    ];
    const [, got, found] = (await store.batch(operations)) as unknown[];
    expect((got as Item | null)?.value).toEqual({ v: 1 });
    expect(found).toHaveLength(1);
  });

  it("a batch with an invalid operation changes nothing", async () => {
    const store = open();
    await expect(
      store.batch([
        { namespace: ["b"], key: "k", value: { v: 1 } },
        { namespace: ["bad.label"], key: "k", value: { v: 2 } },
      ]),
    ).rejects.toThrow(/namespace label/);
    expect(await store.get(["b"], "k")).toBeNull();
  });

  it("a failure in the middle of a batch rolls back its earlier writes", async () => {
    const store = open();
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    await expect(
      store.batch([
        { namespace: ["b"], key: "first", value: { v: 1 } },
        { namespace: ["b"], key: "second", value: circular },
      ]),
    ).rejects.toThrow();
    expect(await store.get(["b"], "first")).toBeNull();
  });

  it("works in memory with ':memory:'", async () => {
    const store = open(":memory:");
    await store.put(["m"], "k", { v: 1 });
    expect((await store.get(["m"], "k"))?.value).toEqual({ v: 1 });
  });

  it("uses WAL journaling in its file and creates missing parent directories", async () => {
    const path = join(dir, "nested", "deeper", "store.db");
    const store = open(path);
    await store.put(["w"], "k", { v: 1 });
    const raw = new Database(path, { readonly: true });
    try {
      expect(raw.pragma("journal_mode", { simple: true })).toBe("wal");
    } finally {
      raw.close();
    }
  });

  it("after close, operations fail with a clear message; closing twice is harmless", async () => {
    const store = open();
    store.close();
    store.close();
    expect(store.closed).toBe(true);
    await expect(store.get(["a"], "k")).rejects.toThrow(/is closed/);
  });

  it("refuses construction without a path", () => {
    expect(() => new SqliteStore({} as never)).toThrow(/needs a path/);
  });
});

describe("SqliteStore in a file", () => {
  it("survives a process restart: node processes write, this one reads", async () => {
    const path = join(dir, "restart.db");
    inChildProcess(`
      const store = SqliteStore.open(${JSON.stringify(path)});
      await store.put(["users", "ana"], "prefs", { theme: "dark" });
      store.close();
    `);
    // This writer exits without close(): committed data must survive an abrupt end too.
    inChildProcess(`
      const store = SqliteStore.open(${JSON.stringify(path)});
      await store.put(["users", "bo"], "prefs", { theme: "light" });
      process.exit(0);
    `);
    const items = await open(path).search(["users"]);
    expect(items.map((i) => [i.namespace, i.value])).toEqual([
      [["users", "ana"], { theme: "dark" }],
      [["users", "bo"], { theme: "light" }],
    ]);
  });

  it("two stores open on one file see each other's writes", async () => {
    const path = join(dir, "shared.db");
    const [a, b] = [open(path), open(path)];
    await a.put(["s"], "from-a", { v: "a" });
    await b.put(["s"], "from-b", { v: "b" });
    expect((await a.search(["s"])).map((i) => i.key)).toEqual(["from-a", "from-b"]);
    expect((await b.get(["s"], "from-a"))?.value).toEqual({ v: "a" });
  });

  it("reopening keeps items and their timestamps", async () => {
    const path = join(dir, "reopen.db");
    const first = open(path);
    await first.put(["r"], "k", { v: 1 });
    const before = (await first.get(["r"], "k"))!;
    first.close();
    const after = (await open(path).get(["r"], "k"))!;
    expect(after.value).toEqual({ v: 1 });
    expect(after.createdAt.getTime()).toBe(before.createdAt.getTime());
  });
});
