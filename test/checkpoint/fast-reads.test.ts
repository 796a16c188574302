// The fast read path a saver gets from withFastReads (what createDeepAgent installs): stored
// values load to exactly what LangGraph's serializer builds, the SQLite walk stops at the
// nearest snapshots and agrees with the saver's own, and PostgreSQL bytea[] text decodes to
// what node-postgres gives.
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  AIMessage,
  AIMessageChunk,
  ChatMessage,
  FunctionMessage,
  HumanMessage,
  HumanMessageChunk,
  RemoveMessage,
  SystemMessage,
  ToolMessage,
} from "@langchain/core/messages";
import { DeltaSnapshot, JsonPlusSerializer } from "@langchain/langgraph-checkpoint";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { FastLoadsSerde, withFastReads } from "delve/checkpoint";
import { afterAll, describe, expect, it } from "vitest";
import { postgresSeedReader } from "../../src/checkpoint/delta-history.js";
import { fastJsonLoad, isBail, withFastLoads } from "../../src/checkpoint/fast-loads.js";
import { parseByteaArray, withFastByteaArrays } from "../../src/checkpoint/pg-fast-arrays.js";
import { createDeepAgent } from "../../src/index.js";
import { sqliteAncestors } from "../../src/langchain-seam/saver-tables.js";
import { ScriptedChatModel } from "../../src/models/scripted-model.js";
import { testPostgres, uniqueSchema } from "../helpers/postgres.js";

// node-postgres itself (a dependency of the PostgreSQL saver), for its own parser and pool.
const pg: any = createRequire(import.meta.url)("pg");
const server = await testPostgres();
afterAll(() => server?.stop());
const stock = new JsonPlusSerializer();
const fast = withFastLoads(new JsonPlusSerializer());

// What the state of a deep agent holds, in every form a message takes.
const messages = () => [
  new SystemMessage("You are careful."),
  new HumanMessage({
    content: [
      { type: "text", text: "look" },
      { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
    ],
    id: "h1",
    name: "ana",
  }),
  new AIMessage({
    content: "",
    id: "a1",
    tool_calls: [
      {
        id: "c1",
        name: "write_file",
        args: { file_path: "/a.md", content: "x".repeat(3000) },
        type: "tool_call",
      },
    ],
    invalid_tool_calls: [
      { id: "c2", name: "grep", args: "{bad", error: "not json", type: "invalid_tool_call" },
    ],
    usage_metadata: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
    response_metadata: {
      model: "m",
      finish_reason: "tool_calls",
      nested: { list: [1, null, "two"] },
    },
    additional_kwargs: { reasoning: "because", empty: {} },
  }),
  new ToolMessage({
    content: "Wrote /a.md",
    tool_call_id: "c1",
    status: "success",
    name: "write_file",
  }),
  new ToolMessage({
    content: "done",
    tool_call_id: "c3",
    artifact: { rows: [1, 2], meta: { at: "x" } },
    status: "error",
  }),
  new ChatMessage({ content: "custom", role: "critic" }),
  new FunctionMessage({ content: "{}", name: "fn" }),
  new RemoveMessage({ id: "h1" }),
  new AIMessageChunk({
    content: "par",
    id: "k1",
    tool_call_chunks: [{ id: "c9", name: "ls", args: "{}", index: 0, type: "tool_call_chunk" }],
  }),
  new HumanMessageChunk({ content: "chunk" }),
];

// Documents the fast path builds itself.
const fastCases: [string, () => unknown][] = [
  ["a list of every kind of message", messages],
  ["a delta snapshot of messages", () => new DeltaSnapshot(messages())],
  [
    "files with undefined fields",
    () => ({
      "/a.md": { content: "a", created_at: undefined, modified_at: "2026-01-01" },
      "/b.md": null,
    }),
  ],
  ["plain JSON", () => ({ n: 1, s: "two", list: [true, null, { deep: [1, 2, [3]] }], empty: [] })],
  [
    "undefined inside message arguments",
    () => [
      new AIMessage({ content: "x", response_metadata: { a: undefined, list: [undefined, 1] } }),
    ],
  ],
  [
    "a Send-like task record",
    () => ({ node: "tools", args: { lg_tool_call: { id: "c1", name: "ls" } } }),
  ],
  [
    "message arguments at load's depth limit (the leaf at 50)",
    () => [
      new AIMessage({ content: "x", additional_kwargs: { deep: nest(47) as any, l: [[[1]]] } }),
    ],
  ],
];

// Documents it hands to the serializer (whatever the serializer makes of them).
const bailCases: [string, () => unknown][] = [
  [
    "message arguments one past load's depth limit (the leaf at 51)",
    () => [new AIMessage({ content: "x", additional_kwargs: { deep: nest(48) as any } })],
  ],
  ["a Set and a Map", () => ({ tags: new Set(["a"]), map: new Map([["k", 1]]) })],
  ["a RegExp, an Error and bytes", () => [/a+/g, new Error("boom"), new Uint8Array([1, 2])]],
  [
    "user data with an lc key inside a message",
    () => [
      new AIMessage({ content: "x", additional_kwargs: { lc: 1, type: "secret", id: ["KEY"] } }),
    ],
  ],
  [
    "user data with an lc key outside messages",
    () => ({ args: { lc: 1, type: "constructor", id: ["x"], kwargs: {} } }),
  ],
  ["a __proto__ key", () => JSON.parse('{"a": {"__proto__": {"polluted": true}}}')],
  [
    "a message with arguments nested past load's limit",
    () => [new AIMessage({ content: "x", additional_kwargs: nest(60) as any })],
  ],
  ["a document nested 600 deep", () => new Raw(`${'{"v":'.repeat(600)}1${"}".repeat(600)}`)],
];

// A stored document given as text (the serializer would not write it this deep).
class Raw {
  constructor(readonly text: string) {}
}

async function stored(value: unknown): Promise<[string, Uint8Array]> {
  return value instanceof Raw
    ? ["json", new TextEncoder().encode(value.text)]
    : stock.dumpsTyped(value);
}

function nest(depth: number): unknown {
  let value: unknown = "bottom";
  for (let i = 0; i < depth; i += 1) value = { v: value };
  return value;
}

async function outcome(load: () => Promise<unknown>): Promise<{ value?: unknown; error?: string }> {
  try {
    return { value: await load() };
  } catch (error) {
    return { error: String((error as Error).message).slice(0, 80) };
  }
}

describe("fast loads give what LangGraph's serializer gives", () => {
  for (const [name, make] of [...fastCases, ...bailCases]) {
    it(name, async () => {
      const [type, bytes] = await stored(make());
      const expected = await outcome(() => stock.loadsTyped(type, bytes));
      const actual = await outcome(() => fast.loadsTyped(type, bytes));
      expect(actual).toStrictEqual(expected);
      if (expected.value !== undefined) {
        expect(JSON.stringify(actual.value)).toBe(JSON.stringify(expected.value));
      }
    });
  }

  it("takes the fast path for what Delve's state holds, and hands everything else over", async () => {
    for (const [name, make] of fastCases) {
      const [, bytes] = await stored(make());
      expect(isBail(fastJsonLoad(new TextDecoder().decode(bytes))), name).toBe(false);
    }
    for (const [name, make] of bailCases) {
      const [, bytes] = await stored(make());
      expect(isBail(fastJsonLoad(new TextDecoder().decode(bytes))), name).toBe(true);
    }
  });

  it("revives message classes, ids and tool calls (not plain objects)", async () => {
    const [type, bytes] = await stock.dumpsTyped(new DeltaSnapshot(messages()));
    const loaded = (await fast.loadsTyped(type, bytes)) as DeltaSnapshot<any>;
    expect(loaded).toBeInstanceOf(DeltaSnapshot);
    expect(AIMessage.isInstance(loaded.value[2])).toBe(true);
    expect(loaded.value[2].tool_calls[0].args.content).toHaveLength(3000);
    expect(ToolMessage.isInstance(loaded.value[4])).toBe(true);
    expect(loaded.value[4].artifact).toEqual({ rows: [1, 2], meta: { at: "x" } });
    expect(loaded.value.map((m: any) => m.id)).toEqual(messages().map((m) => m.id));
  });

  it("wraps only LangGraph's stock serializer", () => {
    class Encrypting extends JsonPlusSerializer {
      protected override async _loads(data: string) {
        return super._loads(data);
      }
    }
    const custom = new Encrypting();
    expect(withFastLoads(custom)).toBe(custom);
    const patched = new JsonPlusSerializer();
    (patched as any).loadsTyped = async () => "mine";
    expect(withFastLoads(patched)).toBe(patched);
    const plain = { dumpsTyped: async () => ["json", new Uint8Array()], loadsTyped: async () => 1 };
    expect(withFastLoads(plain)).toBe(plain);
    const wrapped = withFastLoads(new JsonPlusSerializer());
    expect(wrapped).toBeInstanceOf(FastLoadsSerde);
    expect(withFastLoads(wrapped)).toBe(wrapped);
  });
});

describe("the one-query SQLite walk", () => {
  const dir = mkdtempSync(join(tmpdir(), "delve-fast-reads-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("stops at the nearest snapshots and replays what the saver's own walk replays", async () => {
    const file = join(dir, "walk.db");
    const saver = SqliteSaver.fromConnString(file);
    let step = 0;
    const model = new ScriptedChatModel(
      Array.from(
        { length: 40 },
        () => () =>
          step >= 30
            ? "done"
            : {
                toolCalls: [
                  {
                    name: "write_file",
                    args: { file_path: `/s${step}.md`, content: `body ${step++}` },
                  },
                ],
              },
      ),
    );
    const agent = createDeepAgent({
      model,
      checkpointer: saver,
      summarization: false,
      checkpointSnapshotEvery: 7,
    }) as any;
    const thread = { configurable: { thread_id: "t" } };
    await agent.invoke({ messages: [new HumanMessage("go")] }, thread);
    // A fork from an old checkpoint, then a step on it: the walk must follow the fork's parents.
    const history: any[] = [];
    for await (const s of agent.getStateHistory(thread)) history.push(s);
    const old = history[Math.floor(history.length / 2)];
    const forked = await agent.updateState(old.config, { messages: [new HumanMessage("fork")] });

    const plain = SqliteSaver.fromConnString(file); // the saver's own walk, for comparison
    const fastSaver = withFastReads(SqliteSaver.fromConnString(file));
    const ids = [
      ...history.map((s) => s.config.configurable.checkpoint_id),
      forked.configurable!.checkpoint_id,
    ];
    let stopped = 0;
    for (const id of ids) {
      const config = { configurable: { thread_id: "t", checkpoint_ns: "", checkpoint_id: id } };
      const options = { config, channels: ["messages", "files"] };
      const mine = await fastSaver.getDeltaChannelHistory(options);
      const theirs = await plain.getDeltaChannelHistory(options);
      expect(JSON.stringify(mine), id).toBe(JSON.stringify(theirs));
      const ancestors = await sqliteAncestors(
        (plain as any).db,
        "t",
        "",
        id!,
        ["messages", "files"],
        false,
      );
      const total = history.length;
      if (ancestors.length < total / 2) stopped += 1;
    }
    // With a snapshot every 7 updates, most reads walk a few checkpoints, not the thread.
    expect(stopped).toBeGreaterThan(ids.length / 2);
    (plain as any).db.close();
    (fastSaver as any).db.close();
  });

  it("still finds a snapshot in a checkpoint whose metadata has no counters (older threads)", async () => {
    const file = join(dir, "legacy.db");
    const saver = SqliteSaver.fromConnString(file);
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "write_file", args: { file_path: "/a.md", content: "a" } }] },
      "ok",
    ]);
    const agent = createDeepAgent({
      model,
      checkpointer: saver,
      summarization: false,
      checkpointSnapshotEvery: 1,
    }) as any;
    const thread = { configurable: { thread_id: "old" } };
    const out = await agent.invoke({ messages: [new HumanMessage("go")] }, thread);
    // Strip LangGraph's counters from every checkpoint, as a thread saved before them reads.
    const db = (saver as any).db;
    for (const row of db
      .prepare("SELECT checkpoint_id, metadata FROM checkpoints")
      .all() as any[]) {
      const meta = JSON.parse(Buffer.from(row.metadata).toString());
      delete meta.counters_since_delta_snapshot;
      db.prepare("UPDATE checkpoints SET metadata = ? WHERE checkpoint_id = ?").run(
        Buffer.from(JSON.stringify(meta)),
        row.checkpoint_id,
      );
    }
    const reader = createDeepAgent({
      model: new ScriptedChatModel([]),
      checkpointer: SqliteSaver.fromConnString(file),
      summarization: false,
    }) as any;
    const state = await reader.getState(thread);
    expect(state.values.messages.map((m: any) => m.content)).toEqual(
      out.messages.map((m: any) => m.content),
    );
    expect(Object.keys(state.values.files)).toEqual(["/a.md"]);
    db.close();
  });
});

describe("PostgreSQL bytea[] decoding", () => {
  const pgParse = pg.types.getTypeParser(1001, "text") as (text: string) => unknown;
  const hex = (b: Buffer) => `"\\\\x${b.toString("hex")}"`;

  it("gives node-postgres' own result for every shape PostgreSQL prints", () => {
    const big = Buffer.alloc(200_000, 7);
    const texts = [
      "{}",
      `{${hex(Buffer.from("a"))}}`,
      `{${hex(Buffer.alloc(0))},NULL,${hex(Buffer.from([0, 255, 16]))}}`,
      `{{${hex(Buffer.from("ch"))},${hex(Buffer.from("json"))},${hex(big)}},{${hex(Buffer.from("x"))},NULL,${hex(Buffer.from("y"))}}}`,
    ];
    for (const text of texts) expect(parseByteaArray(text)).toStrictEqual(pgParse(text));
  });

  it("leaves other forms to node-postgres' parser", () => {
    for (const text of [
      '{"abc"}',
      '[0:1]={"\\\\x61","\\\\x62"}',
      '{"\\\\x6"}',
      '{"\\\\xzz"}',
      `{${'"\\\\x61"'}`,
    ]) {
      expect(parseByteaArray(text), text).toBeUndefined();
    }
  });

  it.skipIf(!server)(
    "queries through the saver's pool give the same rows, and errors free the connection",
    async () => {
      const pool = new pg.Pool({ connectionString: server!.url, max: 2 });
      const wrapped = withFastByteaArrays(pool);
      // The pool itself is not changed: only the stand-in answers differently.
      expect(Object.hasOwn(pool, "query")).toBe(false);
      expect(pool.query).toBe(pg.Pool.prototype.query);
      const sql = `SELECT array_agg(array[v::bytea, NULL::bytea]) AS a, 'x'::bytea AS b, 1 AS n
      FROM (VALUES ('one'), (repeat('two', 50000)), ('')) t(v)`;
      expect((await wrapped.query(sql)).rows).toStrictEqual((await pool.query(sql)).rows);
      for (let i = 0; i < 4; i += 1) {
        await expect(wrapped.query("SELECT * FROM no_such_table")).rejects.toThrow(/no_such_table/);
      }
      expect((await wrapped.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
      expect(wrapped.totalCount).toBeLessThanOrEqual(2);
      await wrapped.end();
      expect(pool.ended).toBe(true);
    },
  );

  it("a seed query that fails falls back to reading the seed checkpoints", async () => {
    const failing = {
      query: async () => Promise.reject(new Error("invalid byte sequence for encoding UTF8")),
      connect: async () => Promise.reject(new Error("no connection in this test")),
    };
    const asked: unknown[] = [];
    const saver = {
      pool: failing,
      options: { schema: "public" },
      getTuple: async (config: unknown) => {
        asked.push(config);
        return { checkpoint: { channel_values: { messages: ["from getTuple"] } } };
      },
    };
    const read = postgresSeedReader(saver as any, async () => "never")!;
    expect(await read("t", "", [{ channel: "messages", checkpointId: "c" }])).toEqual(
      new Map([["messages", ["from getTuple"]]]),
    );
    expect(asked).toEqual([
      { configurable: { thread_id: "t", checkpoint_ns: "", checkpoint_id: "c" } },
    ]);
  });

  it.skipIf(!server)("a PostgresSaver read back cold gives the run's state", async () => {
    const schema = uniqueSchema("fastread");
    const saver = PostgresSaver.fromConnString(server!.url, { schema });
    await saver.setup();
    let step = 0;
    const model = new ScriptedChatModel(
      Array.from(
        { length: 12 },
        () => () =>
          step >= 8
            ? "done"
            : {
                toolCalls: [
                  {
                    name: "write_file",
                    args: { file_path: `/p${step}.md`, content: "z".repeat(5000) + step++ },
                  },
                ],
              },
      ),
    );
    const agent = createDeepAgent({
      model,
      checkpointer: saver,
      summarization: false,
      checkpointSnapshotEvery: 3,
    }) as any;
    const thread = { configurable: { thread_id: "pg" } };
    const out = await agent.invoke({ messages: [new HumanMessage("go")] }, thread);
    const cold = PostgresSaver.fromConnString(server!.url, { schema });
    const reader = createDeepAgent({
      model: new ScriptedChatModel([]),
      checkpointer: cold,
      summarization: false,
    }) as any;
    const state = await reader.getState(thread);
    expect((cold as any).pool).not.toBe(undefined);
    expect(state.values.files).toEqual(out.files);
    expect(state.values.messages.map((m: any) => [m.id, m.getType(), m.content])).toEqual(
      out.messages.map((m: any) => [m.id, m.getType(), m.content]),
    );
    await (saver as any).pool.query(`DROP SCHEMA "${schema}" CASCADE`);
    await saver.end();
    await cold.end();
  });
});
