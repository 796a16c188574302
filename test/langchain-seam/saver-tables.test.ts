import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { StateGraph, StateSchema } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { postgresAncestors, sqliteAncestors } from "../../src/langchain-seam/saver-tables.js";
import { testPostgres, uniqueSchema } from "../helpers/postgres.js";

// node-postgres itself (a dependency of the PostgreSQL saver), to read the catalog.
const pg: any = createRequire(import.meta.url)("pg");
const dir = mkdtempSync(join(tmpdir(), "delve-seam-tables-"));
const server = await testPostgres();
afterAll(() => {
  server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const SQLITE_TABLES = {
  checkpoints: [
    "thread_id",
    "checkpoint_ns",
    "checkpoint_id",
    "parent_checkpoint_id",
    "type",
    "checkpoint",
    "metadata",
  ],
  writes: [
    "thread_id",
    "checkpoint_ns",
    "checkpoint_id",
    "task_id",
    "idx",
    "channel",
    "type",
    "value",
  ],
};

const POSTGRES_TABLES = {
  checkpoints: [
    "thread_id",
    "checkpoint_ns",
    "checkpoint_id",
    "parent_checkpoint_id",
    "checkpoint",
  ],
  checkpoint_blobs: ["thread_id", "checkpoint_ns", "channel", "version", "type", "blob"],
  checkpoint_writes: [
    "thread_id",
    "checkpoint_ns",
    "checkpoint_id",
    "task_id",
    "idx",
    "channel",
    "type",
    "blob",
  ],
};

// Three steps that each write `count`: checkpoint -1 (input), 0, 1, 2 with writes between.
const State = new StateSchema({ count: z.number().default(0) });
function counter(checkpointer: SqliteSaver | PostgresSaver) {
  return new StateGraph(State)
    .addNode("one", (s) => ({ count: s.count + 1 }))
    .addNode("two", (s) => ({ count: s.count + 1 }))
    .addEdge("__start__", "one")
    .addEdge("one", "two")
    .compile({ checkpointer });
}

describe("LangGraph's SqliteSaver tables, as Delve's raw SQL reads them", () => {
  const file = join(dir, "threads.db");
  const saver = SqliteSaver.fromConnString(file);

  it("keeps checkpoints and writes in tables with the columns the ancestor query names", async () => {
    await counter(saver).invoke({ count: 0 }, { configurable: { thread_id: "t" } });
    const db = (saver as unknown as { db: { prepare(sql: string): { all(): any[] } } }).db;
    for (const [table, wanted] of Object.entries(SQLITE_TABLES)) {
      const columns = db
        .prepare(`PRAGMA table_info(${table})`)
        .all()
        .map((c) => c.name);
      expect(
        columns,
        `LangGraph's SqliteSaver keeps a table named ${table} with columns ${wanted.join(", ")}`,
      ).toEqual(expect.arrayContaining(wanted));
    }
    const row = db
      .prepare("SELECT CAST(checkpoint AS TEXT) AS json FROM checkpoints LIMIT 1")
      .all();
    expect(
      JSON.parse(row[0].json).channel_values,
      "SqliteSaver stores a checkpoint as JSON text with its channel_values inline",
    ).toBeTypeOf("object");
  });

  it("answers the one-query ancestor read with the writes the saver's own walk replays", async () => {
    const config = { configurable: { thread_id: "t", checkpoint_ns: "" } };
    const newest = (await saver.getTuple(config))!;
    const db = (saver as unknown as { db: any }).db;
    const ancestors = await sqliteAncestors(db, "t", "", newest.checkpoint.id, ["count"], false);
    expect(
      ancestors.map((a) => a.checkpointId),
      "checkpoints.parent_checkpoint_id links a checkpoint to its parent",
    ).toEqual([newest.parentConfig?.configurable?.checkpoint_id]);
    expect(
      ancestors[0]!.channels,
      "a whole checkpoint's JSON holds the value of a channel it has",
    ).toEqual(["count"]);
    const writes = ancestors[0]!.writes;
    expect(
      writes.map((w) => w.channel),
      "writes rows belong to the checkpoint before them",
    ).toEqual(["count"]);
    expect(await saver.serde.loadsTyped(writes[0]!.type, writes[0]!.value)).toBe(2);
  });
});

describe.skipIf(!server)("LangGraph's PostgresSaver tables, as Delve's raw SQL reads them", () => {
  it("keeps checkpoints, checkpoint_blobs and checkpoint_writes with the columns the queries name", async () => {
    const schema = uniqueSchema("seamtables");
    const saver = PostgresSaver.fromConnString(server!.url, { schema });
    await saver.setup();
    const pool = new pg.Pool({ connectionString: server!.url, max: 1 });
    try {
      for (const [table, wanted] of Object.entries(POSTGRES_TABLES)) {
        const { rows } = await pool.query(
          "SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2",
          [schema, table],
        );
        expect(
          rows.map((r: { column_name: string }) => r.column_name),
          `LangGraph's PostgresSaver keeps a table named ${table} in its schema with columns ${wanted.join(", ")}`,
        ).toEqual(expect.arrayContaining(wanted));
      }
      await counter(saver).invoke({ count: 0 }, { configurable: { thread_id: "t" } });
      const newest = (await saver.getTuple({
        configurable: { thread_id: "t", checkpoint_ns: "" },
      }))!;
      const ancestors = await postgresAncestors(
        pool,
        schema,
        "t",
        "",
        newest.checkpoint.id,
        ["count"],
        false,
      );
      expect(
        ancestors[0]?.checkpointId,
        "checkpoints.parent_checkpoint_id links a checkpoint to its parent",
      ).toBe(newest.parentConfig?.configurable?.checkpoint_id);
      expect(
        ancestors[0]!.channels,
        "checkpoint_blobs holds a channel's value at the version checkpoint -> 'channel_versions' names",
      ).toEqual(["count"]);
      expect(
        ancestors[0]!.writes.map((w) => w.channel),
        "checkpoint_writes rows belong to the checkpoint before them",
      ).toEqual(["count"]);
    } finally {
      await pool.end();
      await saver.end();
    }
  });
});
