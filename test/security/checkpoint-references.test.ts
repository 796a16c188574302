// Hostile data against compactCheckpointer's references: a value of a thread shaped like a
// stored skeleton (the reference format, with a real or an unknown hash) must come back as
// the data it is, and a skeleton resolves only the strings its own thread saved.
import { createHash } from "node:crypto";
import { join } from "node:path";
import {
  Annotation,
  type BaseCheckpointSaver,
  END,
  MemorySaver,
  START,
  StateGraph,
} from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { compactCheckpointer } from "delve/checkpoint";
import { describe, expect, it } from "vitest";
import { splitLargeStrings } from "../../src/checkpoint/large-strings.js";
import { uniqueSchema } from "../helpers/postgres.js";
import { scratch } from "../helpers/scratch.js";

const { dir, pg, closers } = await scratch("delve-refs-");

const SECRET = `thread A's secret ${"s".repeat(3000)}`;
const hashOf = (text: string) =>
  createHash("sha256").update(JSON.stringify(text)).digest("hex").slice(0, 32);

/** A graph whose one node stores `value` (text or bytes) in the thread's state. */
function storing(checkpointer: BaseCheckpointSaver, value: unknown) {
  const State = Annotation.Root({ value: Annotation<unknown>(), note: Annotation<string>() });
  return new StateGraph(State)
    .addNode("store", () => ({ value }))
    .addEdge(START, "store")
    .addEdge("store", END)
    .compile({ checkpointer });
}

const savers: Array<[string, () => Promise<BaseCheckpointSaver>]> = [
  ["MemorySaver", async () => new MemorySaver()],
  ["SqliteSaver", async () => SqliteSaver.fromConnString(join(dir, `r-${Math.random()}.db`))],
];
if (pg) {
  savers.push([
    "PostgresSaver",
    async () => {
      const saver = PostgresSaver.fromConnString(pg.url, { schema: uniqueSchema("refs") });
      await saver.setup();
      closers.push(() => saver.end());
      return saver;
    },
  ]);
} else {
  console.warn("checkpoint-references: PostgreSQL cases skipped (no server, see above).");
}

// What a forged reference looks like: the wrapper's own skeleton of a value holding the
// secret, in both formats the wrapper reads (the first one named no thread).
function forgeries(hash: string): Uint8Array[] {
  const v2 = splitLargeStrings(JSON.stringify({ x: SECRET }), 1024, "A")!.skeleton;
  const v1 = new TextEncoder().encode(`\x01dlv1\x01${hash}\n{"x":\x010\x01}`);
  const text = new TextDecoder().decode(v2).replace(hashOf(SECRET), hash);
  return [v1, new TextEncoder().encode(text)];
}

/** What reading a thread gives: its value and history length, or the error, as text. */
async function readBack(saver: BaseCheckpointSaver, thread: string) {
  const config = { configurable: { thread_id: thread } };
  try {
    const state = await storing(saver, null).getState(config);
    const history = [];
    for await (const s of storing(saver, null).getStateHistory(config)) history.push(s);
    const value = state.values.value as Uint8Array;
    return { value: Buffer.from(value).toString("hex"), history: history.length };
  } catch (error) {
    return { error: String((error as Error).name) };
  }
}

describe.each(savers)("compactCheckpointer references on %s", (name, open) => {
  it("bytes on thread B shaped like a reference to thread A's string read as the saver alone reads them", async () => {
    const plain = await open();
    const saver = compactCheckpointer(await open());
    await storing(saver, SECRET).invoke({ note: "a" }, { configurable: { thread_id: "A" } });
    for (const [i, forged] of forgeries(hashOf(SECRET)).entries()) {
      for (const s of [plain, saver]) {
        await storing(s, forged).invoke({ note: "b" }, { configurable: { thread_id: `B${i}` } });
      }
      const got = await readBack(saver, `B${i}`);
      expect(got).toEqual(await readBack(plain, `B${i}`));
      expect(JSON.stringify(got)).not.toContain(Buffer.from("secret").toString("hex"));
      // MemorySaver reads every write as JSON, so bytes do not come back from it at all.
      if (name !== "MemorySaver") expect(got.value).toBe(Buffer.from(forged).toString("hex"));
    }
  });

  it("a reference-shaped value with an unknown hash reads as the saver alone reads it", async () => {
    const plain = await open();
    const saver = compactCheckpointer(await open());
    for (const [i, forged] of forgeries("0".repeat(32)).entries()) {
      for (const s of [plain, saver]) {
        await storing(s, forged).invoke({ note: "u" }, { configurable: { thread_id: `U${i}` } });
      }
      const got = await readBack(saver, `U${i}`);
      expect(got).toEqual(await readBack(plain, `U${i}`));
      if (name !== "MemorySaver") expect(got.history).toBeGreaterThan(1);
    }
  });
  it("a skeleton resolves only the strings its own thread saved", async () => {
    const saver = compactCheckpointer(await open());
    await storing(saver, SECRET).invoke({ note: "a" }, { configurable: { thread_id: "A" } });
    // The wrapper's own skeleton for thread B pointing at A's chunk: B never saved it.
    const chunks = saver.chunks;
    const skeleton = splitLargeStrings(JSON.stringify({ x: SECRET }), 1024, "B")!;
    expect(skeleton.chunks[0]!.hash).toBe(hashOf(SECRET));
    expect((await chunks.get([hashOf(SECRET)], "A")).get(hashOf(SECRET))).toBe(
      JSON.stringify(SECRET),
    );
    expect((await chunks.get([hashOf(SECRET)], "B")).size).toBe(0);
    // (MemorySaver: only arrays the wrapper made are skeletons; this one is not JSON either.)
    await expect(saver.serde.loadsTyped("json", skeleton.skeleton)).rejects.toThrow(
      name === "MemorySaver" ? /JSON/ : /missing/,
    );
  });
});
