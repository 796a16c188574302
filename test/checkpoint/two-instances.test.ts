// Two compactCheckpointers on one database (two servers, or two processes): what one deletes,
// the other must not believe is still saved. A thread deleted through one and reused through
// the other reads back whole.
import { join } from "node:path";
import { HumanMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { createDeepAgent } from "delve";
import { compactCheckpointer } from "delve/checkpoint";
import { ScriptedChatModel } from "delve/testing";
import { describe, expect, it } from "vitest";
import { uniqueSchema } from "../helpers/postgres.js";
import { scratch } from "../helpers/scratch.js";

const { dir, pg, closers } = await scratch("delve-two-");

/** Opens a new saver over one shared database each call (a second process would). */
const databases: Array<[string, () => () => Promise<BaseCheckpointSaver>]> = [
  [
    "SQLite",
    () => {
      const file = join(dir, `two-${Math.random()}.db`);
      return async () => SqliteSaver.fromConnString(file);
    },
  ],
];
if (pg) {
  databases.push([
    "PostgreSQL",
    () => {
      const schema = uniqueSchema("two");
      return async () => {
        const saver = PostgresSaver.fromConnString(pg.url, { schema });
        await saver.setup();
        closers.push(() => saver.end());
        return saver;
      };
    },
  ]);
} else {
  console.warn("two-instances: PostgreSQL cases skipped (no server, see above).");
}

const content = `the report ${"r".repeat(4000)}`;
const writeReport = (checkpointer: BaseCheckpointSaver) =>
  createDeepAgent({
    model: new ScriptedChatModel([
      { toolCalls: [{ name: "write_file", args: { file_path: "/report.md", content } }] },
      "written",
    ]),
    checkpointer,
  });

describe.each(databases)("two compactCheckpointers on one %s database", (_name, database) => {
  it("a thread deleted through one and reused through the other reads back whole", async () => {
    const open = database();
    const one = compactCheckpointer(await open());
    const two = compactCheckpointer(await open());
    const thread = { configurable: { thread_id: "T" } };
    await writeReport(one).invoke({ messages: [new HumanMessage("write it")] }, thread);
    await two.deleteThread("T");
    await writeReport(one).invoke({ messages: [new HumanMessage("write it again")] }, thread);
    for (const reader of [one, two, compactCheckpointer(await open())]) {
      const cold = createDeepAgent({ model: new ScriptedChatModel([]), checkpointer: reader });
      const state: any = await cold.getState(thread);
      expect(state.values.files["/report.md"].content).toBe(content);
      expect(state.values.messages.at(-1).content).toBe("written");
    }
  });
});
