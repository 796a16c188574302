// The same scenarios on each saver, with and without compactCheckpointer: interrupts resumed
// by a "new process" (a new saver over the same data, a new agent), time travel and forks,
// parallel subagents, concurrent threads, thread deletion. Each scenario's outcome must be
// the same on every variant, and the same after a cold reload.
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BaseMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { Command, MemorySaver } from "@langchain/langgraph";
import { JsonPlusSerializer } from "@langchain/langgraph-checkpoint";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { createDeepAgent } from "delve";
import { compactCheckpointer, FastLoadsSerde } from "delve/checkpoint";
import { ScriptedChatModel } from "delve/testing";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { loadPlainJson } from "../../src/checkpoint/plain-json.js";
import { testPostgres, uniqueSchema } from "../helpers/postgres.js";

const dir = mkdtempSync(join(tmpdir(), "delve-diff-"));
const pg = await testPostgres();
const openPools: PostgresSaver[] = [];
afterAll(async () => {
  for (const saver of openPools) await saver.end();
  pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A saver kind: `open()` gives a saver over the same data each time (a "new process"). */
interface Variant {
  name: string;
  fresh(): Promise<{ open(): Promise<any> }>;
}

let n = 0;
const kinds: Array<[string, () => Promise<{ open(): Promise<any> }>]> = [
  [
    "memory",
    async () => {
      const saver = new MemorySaver();
      return { open: async () => saver };
    },
  ],
  [
    "sqlite",
    async () => {
      const file = join(dir, `d${++n}.db`);
      return { open: async () => SqliteSaver.fromConnString(file) };
    },
  ],
];
if (pg) {
  kinds.push([
    "postgres",
    async () => {
      const schema = uniqueSchema("diff");
      return {
        open: async () => {
          const saver = PostgresSaver.fromConnString(pg.url, { schema });
          openPools.push(saver);
          await saver.setup();
          return saver;
        },
      };
    },
  ]);
}

// The wrapper keeps its chunks beside the saver's data (for Memory: in the wrapper itself).
const variants: Variant[] = kinds.flatMap(([kind, make]) => [
  { name: kind, fresh: make },
  {
    name: `${kind} + compactCheckpointer`,
    fresh: async () => {
      const data = await make();
      let memory: any;
      return {
        open: async () => {
          if (kind !== "memory")
            return compactCheckpointer(await data.open(), { minChunkChars: 256 });
          memory ??= compactCheckpointer(await data.open(), { minChunkChars: 256 });
          return memory;
        },
      };
    },
  },
]);

const big = (tag: string) => `${tag}: ${"lorem ipsum dolor sit amet ".repeat(100)}`;
const outcome = (values: any) => ({
  files: Object.fromEntries(
    Object.entries(values?.files ?? {}).map(([p, f]: any) => [p, f.content]),
  ),
  messages: (values?.messages ?? []).map((m: BaseMessage) => [m.getType(), m.content]),
});
const ids = (values: any) => (values?.messages ?? []).map((m: BaseMessage) => m.id);

async function onEveryVariant<T>(
  scenario: (v: Variant) => Promise<T>,
  except: string[] = [],
): Promise<void> {
  const results: Array<[string, T]> = [];
  for (const v of variants) if (!except.includes(v.name)) results.push([v.name, await scenario(v)]);
  for (const [name, result] of results.slice(1)) {
    expect({ variant: name, result }).toEqual({ variant: name, result: results[0]![1] });
  }
}

const deleteOrder = (ledger: string[]) =>
  tool(
    async ({ order_id }: { order_id: string }) => {
      ledger.push(order_id);
      return `deleted ${order_id}`;
    },
    {
      name: "delete_order",
      description: "Delete an order.",
      schema: z.object({ order_id: z.string() }),
    },
  );

describe("the same behaviour on every saver, with and without compactCheckpointer", () => {
  it("an interrupt resumed by a new process runs the tool once, and no user message doubles", async () => {
    await onEveryVariant(async (v) => {
      const data = await v.fresh();
      const ledger: string[] = [];
      const config = { configurable: { thread_id: "order" } };
      const start = createDeepAgent({
        model: new ScriptedChatModel([
          {
            toolCalls: [
              { name: "write_file", args: { file_path: "/note.md", content: big("note") } },
            ],
          },
          { toolCalls: [{ name: "delete_order", args: { order_id: "ORD-7" }, id: "d7" }] },
        ]),
        tools: [deleteOrder(ledger)],
        interruptOn: { delete_order: true },
        checkpointer: await data.open(),
      });
      const paused: any = await start.invoke(
        { messages: [{ role: "user", content: big("delete") }] },
        config,
      );
      expect(paused.__interrupt__).toHaveLength(1);
      const resume = createDeepAgent({
        model: new ScriptedChatModel([(m) => `done after ${m.length} messages`]),
        tools: [deleteOrder(ledger)],
        interruptOn: { delete_order: true },
        checkpointer: await data.open(),
      });
      const out: any = await resume.invoke(
        new Command({ resume: { decisions: [{ type: "approve" }] } }),
        config,
      );
      const reread: any = await createDeepAgent({
        model: new ScriptedChatModel([]),
        checkpointer: await data.open(),
      }).getState(config);
      expect(outcome(reread.values)).toEqual(outcome(out));
      expect(ids(reread.values)).toEqual(ids(out));
      const humans = out.messages.filter((m: BaseMessage) => m.getType() === "human");
      expect(humans).toHaveLength(1);
      return { ledger, out: outcome(out) };
    });
  });

  it("time travel: an old checkpoint reads as it was, and a fork from it leaves the original branch intact", async () => {
    await onEveryVariant(
      async (v) => {
        const data = await v.fresh();
        const config = { configurable: { thread_id: "travel" } };
        const write = (p: string) => ({
          toolCalls: [{ name: "write_file", args: { file_path: p, content: big(p) } }],
        });
        const agent = createDeepAgent({
          model: new ScriptedChatModel([
            write("/a.md"),
            write("/b.md"),
            write("/c.md"),
            "done",
            write("/fork.md"),
            "forked",
          ]),
          checkpointer: await data.open(),
        });
        const main: any = await agent.invoke(
          { messages: [{ role: "user", content: "write three" }] },
          config,
        );
        const history: any[] = [];
        for await (const s of (agent as any).getStateHistory(config)) history.push(s);
        const old = history.find(
          (s) => Object.keys(s.values.files ?? {}).length === 1 && s.next.includes("model_request"),
        );
        expect(old).toBeDefined();
        const forked: any = await agent.invoke(
          { messages: [{ role: "user", content: "fork here" }] },
          old.config,
        );
        const cold = createDeepAgent({
          model: new ScriptedChatModel([]),
          checkpointer: await data.open(),
        });
        const oldAgain: any = await cold.getState(old.config);
        const mainAgain: any = await cold.getState({
          configurable: {
            thread_id: "travel",
            checkpoint_id: history[0].config.configurable.checkpoint_id,
          },
        });
        expect(ids(mainAgain.values)).toEqual(ids(main));
        return {
          old: outcome(oldAgain.values),
          main: outcome(mainAgain.values),
          forked: outcome(forked),
          latest: outcome(((await cold.getState(config)) as any).values),
        };
        // PostgresSaver alone (1.0.5) keys channel values by (channel, version) and keeps the
        // first value saved: a fork reuses the old branch's next version and reads its values
        // (here the old branch's next AI message). compactCheckpointer gives it unique versions.
      },
      ["postgres"],
    );
  });

  it("parallel subagents and concurrent threads keep every file, and read back the same", async () => {
    await onEveryVariant(async (v) => {
      const data = await v.fresh();
      const brain = (messages: BaseMessage[]) => {
        const first = String(messages.find((m) => m.getType() === "human")?.content ?? "");
        const afterTool = messages.at(-1)?.getType() === "tool";
        if (first.startsWith("main")) {
          if (afterTool) return "all done";
          return {
            toolCalls: ["alpha", "beta"].map((w) => ({
              name: "task",
              args: { description: `sub ${w} ${first}`, subagent_type: "general-purpose" },
              id: `task-${w}`,
            })),
          };
        }
        if (afterTool) return "sub done";
        const [, which, , thread] = first.split(" ");
        return {
          toolCalls: [
            {
              name: "write_file",
              args: { file_path: `/${thread}-${which}.md`, content: big(first) },
            },
          ],
        };
      };
      const saver = await data.open();
      const agent = createDeepAgent({
        model: new ScriptedChatModel(Array(40).fill(brain)),
        checkpointer: saver,
      });
      const threads = ["t1", "t2"];
      const outs: any[] = await Promise.all(
        threads.map((t) =>
          agent.invoke(
            { messages: [{ role: "user", content: `main ${t}` }] },
            { configurable: { thread_id: t } },
          ),
        ),
      );
      const cold = createDeepAgent({
        model: new ScriptedChatModel([]),
        checkpointer: await data.open(),
      });
      const reread = await Promise.all(
        threads.map(
          async (t) => ((await cold.getState({ configurable: { thread_id: t } })) as any).values,
        ),
      );
      reread.forEach((values, i) => {
        expect(outcome(values).files).toEqual(outcome(outs[i]).files);
        expect(new Set(ids(values))).toEqual(new Set(ids(outs[i])));
      });
      return outs.map((o) => ({ files: outcome(o).files, count: o.messages.length }));
    });
  });

  it("deleting a thread removes it (and the strings only it used); other threads stay whole", async () => {
    await onEveryVariant(async (v) => {
      const data = await v.fresh();
      const saver = await data.open();
      const shared = big("shared");
      const run = (thread: string, content: string) =>
        createDeepAgent({
          model: new ScriptedChatModel([
            { toolCalls: [{ name: "write_file", args: { file_path: "/s.md", content: shared } }] },
            { toolCalls: [{ name: "write_file", args: { file_path: "/own.md", content } }] },
            "ok",
          ]),
          checkpointer: saver,
        }).invoke(
          { messages: [{ role: "user", content: "go" }] },
          { configurable: { thread_id: thread } },
        );
      await run("keep", big("keep"));
      await run("drop", big("drop"));
      if (v.name.endsWith("compactCheckpointer"))
        expect(await stringsLeft(saver, big("drop"))).toBe(true);
      await saver.deleteThread("drop");
      const cold = createDeepAgent({
        model: new ScriptedChatModel([]),
        checkpointer: await data.open(),
      });
      const dropped: any = await cold.getState({ configurable: { thread_id: "drop" } });
      const kept: any = await cold.getState({ configurable: { thread_id: "keep" } });
      expect(dropped.values.messages ?? []).toEqual([]);
      if (v.name.endsWith("compactCheckpointer")) {
        expect(JSON.stringify(kept.values)).toContain(shared.slice(0, 40));
        expect(await stringsLeft(saver, big("drop"))).toBe(false);
        expect(await stringsLeft(saver, shared)).toBe(true);
      }
      return outcome(kept.values);
    });
  });
});

/** Whether the wrapper's chunk table still holds a string (looked up by its hash). */
async function stringsLeft(saver: any, text: string): Promise<boolean> {
  const hash = createHash("sha256").update(JSON.stringify(text)).digest("hex").slice(0, 32);
  return (await saver.chunks.get([hash])).size > 0;
}

// Stored documents a saver may hold that JSON spells in more than one way: each fast load
// path (the fast serializer, the plain-JSON shortcut of history reads, compactCheckpointer's
// batch load) must give what LangGraph's own serializer gives, value or error.
const human = (key: string) =>
  `{${key}:1,"type":"constructor","id":["langchain_core","messages","HumanMessage"],"kwargs":{"content":"hi","id":"m1"}}`;
const escapedDocuments: [string, string][] = [
  ["an escaped lc key on a message", `[${human('"\\u006cc"')}]`],
  ["an escaped lc key, upper case", `{"m":${human('"\\u006Cc"')}}`],
  ["both letters escaped", `[${human('"\\u006c\\u0063"')}]`],
  [
    "an escaped constructor type",
    `[${human('"lc"').replace('"constructor"', '"\\u0063onstructor"')}]`,
  ],
  ["an escaped __proto__ key", '{"a":{"\\u005f_proto__":{"polluted":true}}}'],
  ["a plain __proto__ key", '{"a":{"__proto__":{"polluted":true}}}'],
  ["an escaped undefined marker", '{"a":{"\\u006cc":2,"type":"undefined"},"b":1}'],
  ["escapes inside string values only", '{"text":"say \\"lc\\" \\u00e9 \\n \\\\u006cc","n":[1]}'],
  ["an escaped lc key in plain data", '{"args":{"\\u006cc":1,"type":"secret","id":["KEY"]}}'],
  [
    "a constructor that throws",
    `[${human('"lc"').replace("HumanMessage", "RemoveMessage").replace('"id":"m1"', '"x":1')}]`,
  ],
  ["not JSON", '{"a": '],
];

async function settle(
  load: () => unknown,
): Promise<{ value?: string; error?: string; sync?: true }> {
  let pending: unknown;
  try {
    pending = load();
  } catch (error) {
    return { sync: true, error: (error as Error).name };
  }
  try {
    const value: any = await pending;
    return { value: `${JSON.stringify(value)} ${describeClasses(value)}` };
  } catch (error) {
    return { error: (error as Error).name };
  }
}

// Class names and prototypes along a value, so a message and a plain object differ.
function describeClasses(value: unknown, out: string[] = []): string {
  if (value && typeof value === "object") {
    out.push(Object.getPrototypeOf(value)?.constructor?.name ?? "null");
    for (const v of Object.values(value)) describeClasses(v, out);
  }
  return out.join(",");
}

describe("fast loads of escaped documents give what LangGraph's serializer gives", () => {
  const stock = new JsonPlusSerializer();
  const fast = new FastLoadsSerde(new JsonPlusSerializer());
  const compact = compactCheckpointer(new MemorySaver()).serde as any;
  for (const [name, text] of escapedDocuments) {
    it(name, async () => {
      const bytes = new TextEncoder().encode(text);
      const expected = await settle(() => stock.loadsTyped("json", bytes));
      expect(await settle(() => fast.loadsTyped("json", bytes))).toEqual(expected);
      expect(
        await settle(async () => loadPlainJson("json", bytes) ?? fast.loadsTyped("json", bytes)),
      ).toEqual(expected);
      const batch = await settle(
        async () => (await compact.loadMany([{ type: "json", value: bytes }]))[0],
      );
      expect(batch).toEqual(expected);
    });
  }

  it("a load that fails rejects, never throws", async () => {
    for (const data of [42, {}, [1]] as any[]) {
      const expected = await settle(() => stock.loadsTyped("json", data));
      expect(await settle(() => fast.loadsTyped("json", data))).toEqual(expected);
    }
  });
});
