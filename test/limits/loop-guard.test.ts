import { createDeepAgent, ScriptedChatModel } from "delve";
import { describe, expect, it } from "vitest";
import { readBudget } from "../../src/limits/budget.js";
import { readLimitHit } from "../../src/limits/middleware.js";

const user = (content: string) => ({ messages: [{ role: "user" as const, content }] });
const same = { toolCalls: [{ name: "ls", args: { path: "/" } }] };
const texts = (state: any) => state.messages.map((m: any) => String(m.content));

describe("the loop and stall guard", () => {
  it("nudges a repeated identical call, then stops the run with reason loop", async () => {
    const model = new ScriptedChatModel(Array.from({ length: 30 }, () => same));
    const out = await createDeepAgent({ model }).invoke(user("go"));
    // Default repeats 4: calls 4 and 5 get the note, call 6 is replaced by the stop.
    expect(model.used).toBe(6);
    const nudged = texts(out).filter((t: string) => t.includes("[Note: this is call"));
    expect(nudged).toHaveLength(2);
    expect(nudged[0]).toContain("call 4 of ls with these same arguments");
    expect(readLimitHit(out)).toMatchObject({ name: "loop", value: 4, used: 6 });
    const last = out.messages.at(-1) as any;
    expect(last.tool_calls ?? []).toEqual([]);
    expect(String(last.content)).toContain("ls was called 6 times with the same arguments");
    expect(readBudget(out).toolCalls).toBe(5);
  });

  it("stops a run that alternates between calls it already made (stall)", async () => {
    const a = { toolCalls: [{ name: "ls", args: { path: "/a" } }] };
    const b = { toolCalls: [{ name: "ls", args: { path: "/b" } }] };
    const model = new ScriptedChatModel(Array.from({ length: 40 }, (_, i) => (i % 2 ? b : a)));
    const out = await createDeepAgent({
      model,
      limits: { loop: { repeats: 50, stallTurns: 3 } },
    }).invoke(user("go"));
    // Turns 3 and 4 make only old calls: nudged at 3 stalled turns, stopped at 5.
    expect(readLimitHit(out)).toMatchObject({ name: "stall", value: 3, used: 5 });
    expect(model.used).toBe(7);
    expect(
      texts(out).some((t: string) => t.includes("turns in a row repeated earlier calls")),
    ).toBe(true);
  });

  it("leaves varied work alone, and is off with loop: false", async () => {
    const varied = Array.from({ length: 12 }, (_, i) => ({
      toolCalls: [{ name: "ls", args: { path: `/d${i}` } }],
    }));
    const model = new ScriptedChatModel([...varied, "done"]);
    const out = await createDeepAgent({ model }).invoke(user("go"));
    expect(texts(out).at(-1)).toBe("done");
    expect(readLimitHit(out)).toBeUndefined();
    const loops = new ScriptedChatModel([...Array.from({ length: 10 }, () => same), "done"]);
    const free = await createDeepAgent({ model: loops, limits: { loop: false } }).invoke(
      user("go"),
    );
    expect(texts(free).at(-1)).toBe("done");
  });

  it("a looping subagent is stopped on its own and its parent carries on", async () => {
    const task = {
      toolCalls: [{ name: "task", args: { description: "x", subagent_type: "general-purpose" } }],
    };
    const model = new ScriptedChatModel([
      task,
      ...Array.from({ length: 6 }, () => same),
      "parent done",
    ]);
    const out = await createDeepAgent({ model }).invoke(user("go"));
    const result = out.messages.find((m: any) => m.name === "task");
    expect(String(result?.content)).toContain("ls was called 6 times");
    expect(texts(out).at(-1)).toBe("parent done");
    expect(readLimitHit(out)).toBeUndefined();
  });
});
