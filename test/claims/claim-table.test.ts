import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InMemoryStore, MemorySaver } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { SqliteStore } from "delve/sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { claimTableOf } from "../../src/claims/claim-table.js";
import { testPostgres, uniqueSchema } from "../helpers/postgres.js";

const dir = mkdtempSync(join(tmpdir(), "delve-claims-"));
const pg = await testPostgres();
const closers: Array<() => unknown> = [];
afterAll(async () => {
  for (const close of closers) await close();
  pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const holders: Array<[string, boolean, () => Promise<object>]> = [
  ["MemorySaver", false, async () => new MemorySaver()],
  ["InMemoryStore", false, async () => new InMemoryStore()],
  ["SqliteSaver", true, async () => SqliteSaver.fromConnString(join(dir, "saver.db"))],
  [
    "SqliteStore",
    true,
    async () => {
      const store = SqliteStore.open(join(dir, "store.db"));
      closers.push(() => store.close());
      return store;
    },
  ],
];
if (pg) {
  holders.push(
    [
      "PostgresSaver",
      true,
      async () => {
        const saver = PostgresSaver.fromConnString(pg.url, { schema: uniqueSchema("claims") });
        closers.push(() => saver.end());
        return saver;
      },
    ],
    [
      "PostgresStore",
      true,
      async () => {
        const store = PostgresStore.fromConnString(pg.url, { schema: uniqueSchema("claims") });
        closers.push(() => store.stop());
        return store;
      },
    ],
  );
}

describe.each(holders)("claims in a %s", (_name, durable, open) => {
  it("twenty concurrent inserts of one key: exactly one wins, the rest read its value", async () => {
    const claims = claimTableOf(await open());
    expect(claims.durable).toBe(durable);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => claims.insert("k", `owner-${i}`)),
    );
    const winners = results.flatMap((r, i) => (r === undefined ? [i] : []));
    expect(winners).toHaveLength(1);
    expect(new Set(results.filter((r) => r !== undefined))).toEqual(
      new Set([`owner-${winners[0]}`]),
    );
  });

  it("swap and remove act only on the expected value", async () => {
    const claims = claimTableOf(await open());
    await claims.insert("s", "a");
    expect(await claims.swap("s", "b", "c")).toBe(false);
    expect(await claims.swap("s", "a", "c")).toBe(true);
    expect(await claims.get("s")).toBe("c");
    expect(await claims.remove("s", "a")).toBe(false);
    expect(await claims.remove("s", "c")).toBe(true);
    expect(await claims.get("s")).toBeUndefined();
    expect(await claims.insert("s", "d")).toBeUndefined();
  });
});

it("a checkpointer that wraps a SqliteSaver claims in the wrapped saver's file", async () => {
  const saver = SqliteSaver.fromConnString(join(dir, "wrapped.db"));
  const wrapper = { inner: saver };
  expect(claimTableOf(wrapper).durable).toBe(true);
  expect(await claimTableOf(wrapper).insert("w", "via wrapper")).toBeUndefined();
  expect(await claimTableOf(saver).insert("w", "direct")).toBe("via wrapper");
});

it("a second handle on the same SQLite file sees the first one's claims", async () => {
  const file = join(dir, "shared.db");
  const [a, b] = [SqliteStore.open(file), SqliteStore.open(file)];
  closers.push(
    () => a.close(),
    () => b.close(),
  );
  expect(await claimTableOf(a).insert("x", "from a")).toBeUndefined();
  expect(await claimTableOf(b).insert("x", "from b")).toBe("from a");
});
