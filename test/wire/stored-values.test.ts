// Every value a real run stores loads the same through Delve's fast path as through
// LangGraph's own serializer: the real provider classes (OpenAI chat completions and
// responses, Anthropic) over their fakes, with a subagent, an image, an approval and a
// resume, saved by a SqliteSaver; then each checkpoint and each write is loaded both ways.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HumanMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph";
import { JsonPlusSerializer } from "@langchain/langgraph-checkpoint";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { createDeepAgent, InMemoryBackend } from "delve";
import { afterAll, describe, expect, it } from "vitest";
import { fastJsonLoad, isBail, withFastLoads } from "../../src/checkpoint/fast-loads.js";
import { tinyPng, WIRE_APIS } from "./providers.js";

const dir = mkdtempSync(join(tmpdir(), "delve-stored-values-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each(WIRE_APIS)("stored values of a run over $name", (api) => {
  it("load through the fast path exactly as through LangGraph's serializer", async () => {
    const fake = await api.start();
    try {
      fake.script([
        {
          toolCalls: [
            {
              name: "task",
              args: {
                description: "Read /chart.png and say ok.",
                subagent_type: "general-purpose",
              },
              id: "call_task",
            },
          ],
        },
        { toolCalls: [{ name: "read_file", args: { file_path: "/chart.png" }, id: "call_r" }] },
        { text: "ok" },
        {
          toolCalls: [
            {
              name: "write_file",
              args: { file_path: "/a.md", content: "é ✓ \u0000-free\n".repeat(200) },
              id: "call_w",
            },
          ],
        },
        { text: "Written." },
      ]);
      const backend = new InMemoryBackend();
      await backend.uploadFiles([{ path: "/chart.png", content: tinyPng() }]);
      const saver = SqliteSaver.fromConnString(join(dir, `${api.name}.db`));
      const agent = createDeepAgent({
        model: api.model(fake),
        backend,
        checkpointer: saver,
        interruptOn: { write_file: true },
      });
      const config = { configurable: { thread_id: api.name } };
      const paused = await agent.invoke(
        { messages: [new HumanMessage("look at the chart, then write /a.md")] },
        config,
      );
      expect(paused.__interrupt__).toHaveLength(1);
      await agent.invoke(new Command({ resume: { decisions: [{ type: "approve" }] } }), config);
      expect(fake.requests.map((r) => r.rejected)).toEqual(Array(5).fill(undefined));
      expect((await backend.read("/a.md")).lines?.[0]).toBe("é ✓ \u0000-free");

      const db = (saver as any).db;
      const stored = [
        ...db.prepare("SELECT type, checkpoint AS value FROM checkpoints").all(),
        ...db
          .prepare("SELECT type, metadata AS value FROM checkpoints")
          .all()
          .map((r: any) => ({ ...r, type: "json" })),
        ...db.prepare("SELECT type, value FROM writes").all(),
      ] as { type: string; value: Uint8Array }[];
      const stock = new JsonPlusSerializer();
      const fast = withFastLoads(new JsonPlusSerializer());
      let fastPath = 0;
      for (const { type, value } of stored) {
        const expected = await stock.loadsTyped(type, value);
        const actual = await fast.loadsTyped(type, value);
        expect(actual).toStrictEqual(expected);
        expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
        if (type === "json" && !isBail(fastJsonLoad(new TextDecoder().decode(value))))
          fastPath += 1;
      }
      // Most values (every message, file and snapshot) take the fast path.
      expect(stored.length).toBeGreaterThan(20);
      expect(fastPath / stored.length).toBeGreaterThan(0.9);
      db.close();
    } finally {
      await fake.close();
    }
  });
});
