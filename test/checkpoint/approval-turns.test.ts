// A desk that approves every turn: resuming an approval must store what the resume changed
// (the tool result, the answer), not the thread's whole message list again, so a resumed
// turn costs the same at turn 3 as at turn 16.
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { createDeepAgent } from "delve";
import { compactCheckpointer } from "delve/checkpoint";
import { ScriptedChatModel } from "delve/testing";
import { describe, expect, it } from "vitest";
import { orderTools, resume, thread, user } from "../approval/helpers.js";

/** Bytes in the saver's tables (and the wrapper's), as stored. */
function storedBytes(db: { prepare(sql: string): { all(): any[]; get(): any } }): number {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
    .all()
    .map((r: any) => String(r.name));
  let total = 0;
  for (const table of tables) {
    const columns = db.prepare(`SELECT name FROM pragma_table_info('${table}')`).all();
    const sum = columns.map((c) => `COALESCE(length(CAST("${c.name}" AS BLOB)), 0)`).join(" + ");
    total += Number(db.prepare(`SELECT SUM(${sum}) AS n FROM "${table}"`).get()?.n ?? 0);
  }
  return total;
}

describe.each([
  ["SqliteSaver", false],
  ["SqliteSaver + compactCheckpointer", true],
])("approval turns on %s", (_name, compact) => {
  it("a resumed turn stores what it changed, however long the thread", async () => {
    const saver = SqliteSaver.fromConnString(":memory:");
    const { tools } = orderTools();
    const turns = 16;
    const steps = Array.from({ length: turns }, (_, t) => [
      { toolCalls: [{ name: "delete_order", args: { order_id: `ORD-${t}` } }] },
      `Deleted ORD-${t}. ${"The order is gone. ".repeat(20)}`,
    ]).flat();
    const agent = createDeepAgent({
      model: new ScriptedChatModel(steps),
      tools,
      interruptOn: { delete_order: true },
      checkpointer: compact ? compactCheckpointer(saver) : saver,
    });
    const resumed: number[] = [];
    let messages = 0;
    for (let t = 0; t < turns; t += 1) {
      await agent.invoke(user(`delete ORD-${t} ${"please ".repeat(40)}`), thread("desk"));
      const before = storedBytes(saver.db as any);
      const out: any = await agent.invoke(resume([{ type: "approve" }]), thread("desk"));
      resumed.push(storedBytes(saver.db as any) - before);
      messages = JSON.stringify(out.messages).length;
    }
    // The thread's messages grew ~8x from turn 3 to the last; a resume stays the same size.
    expect(resumed.at(-1)!).toBeLessThan(resumed[2]! * 1.15 + 512);
    expect(resumed.at(-1)!).toBeLessThan(messages / 3);
  }, 60_000);
});
