import { MemorySaver } from "@langchain/langgraph";
import { createDeepAgent, readBudget, readLimitHit, ScriptedChatModel } from "delve";
import { describe, expect, it } from "vitest";

// A model that fans out 500 subagents in one turn, turn after turn: the breadth budgets stop
// it cleanly (refused calls with what to do instead, a final answer, the counts in state).

const user = (content: string) => ({ messages: [{ role: "user" as const, content }] });
const fanOut = (turn: number) => ({
  toolCalls: Array.from({ length: 500 }, (_, i) => ({
    name: "task",
    args: { description: `job ${turn}-${i}`, subagent_type: "general-purpose" },
  })),
});

// One brain for the agent and every subagent: a subagent (its task starts "job") answers at
// once; the agent fans out `turns` times, then answers.
function fanningModel(turns: number) {
  const subagentRuns: string[] = [];
  const brain = (messages: any[]) => {
    const task = String(messages.find((m) => m.type === "human")?.content ?? "");
    if (task.startsWith("job")) {
      subagentRuns.push(task);
      return `done ${task}`;
    }
    // Fan-outs since the latest user message: each new message starts the count again.
    const since = messages.slice(messages.findLastIndex((m) => m.type === "human"));
    const made = since.filter((m) => m.type === "ai" && m.tool_calls?.length).length;
    return made < turns ? fanOut(made) : "all done";
  };
  return { model: new ScriptedChatModel(Array.from({ length: 2_000 }, () => brain)), subagentRuns };
}

const refusals = (out: any, text: string) =>
  out.messages.filter((m: any) => m.type === "tool" && String(m.content).includes(text));

describe("a fan-out of 500 subagents", () => {
  it("in one turn: subagentsTotal runs 20 of them and refuses the rest", async () => {
    const { model, subagentRuns } = fanningModel(1);
    const agent = createDeepAgent({ model, limits: { subagentsTotal: 20 } });
    const started = Date.now();
    const out = await agent.invoke(user("go"));
    expect(Date.now() - started).toBeLessThan(40_000);
    expect(subagentRuns).toHaveLength(20);
    expect(refusals(out, "subagentsTotal budget (20) is used up")).toHaveLength(480);
    expect(refusals(out, "Do the remaining work yourself, or give your answer")).toHaveLength(480);
    expect(readBudget(out).subagentsTotal).toBe(20);
    expect(String(out.messages.at(-1)?.content)).toBe("all done");
    expect(readLimitHit(out)).toBeUndefined();
  }, 60_000);

  it("turn after turn: subagentsPerTurn and subagentsTotal together bound the whole run", async () => {
    const { model, subagentRuns } = fanningModel(2);
    const checkpointer = new MemorySaver();
    const thread = { configurable: { thread_id: "fan" } };
    const limits = { subagentsPerTurn: 5, subagentsTotal: 8, loop: false as const };
    const agent = createDeepAgent({ model, checkpointer, limits });
    const out = await agent.invoke(user("go"), thread);
    // 5 + 3: the second turn reaches the total.
    expect(subagentRuns).toHaveLength(8);
    expect(refusals(out, "At most 5 task calls run per turn")).toHaveLength(2 * 495);
    expect(refusals(out, "subagentsTotal budget (8) is used up")).toHaveLength(2);
    expect(String(out.messages.at(-1)?.content)).toBe("all done");
    // The count is kept in the thread: a new fan-out on it runs nothing more.
    const again = fanningModel(1);
    const resumed = createDeepAgent({ model: again.model, checkpointer, limits });
    const next = await resumed.invoke(user("more"), thread);
    expect(again.subagentRuns).toHaveLength(0);
    // The thread's 2 earlier refusals, and the 5 calls this turn admitted per turn.
    expect(refusals(next, "subagentsTotal budget (8) is used up")).toHaveLength(2 + 5);
    expect(readBudget(next).subagentsTotal).toBe(8);
  }, 60_000);
});
