import { MemorySaver } from "@langchain/langgraph";
import { createDeepAgent, ScriptedChatModel } from "delve";
import { describe, expect, it } from "vitest";
import { readBudget } from "../../src/limits/budget.js";
import { readLimitHit } from "../../src/limits/middleware.js";

const user = (content: string) => ({ messages: [{ role: "user" as const, content }] });
const ls = (i: number) => ({ toolCalls: [{ name: "ls", args: { path: `/d${i}` } }] });
const lastText = (state: any) => String(state.messages.at(-1)?.content ?? "");

describe("run budgets", () => {
  it("a modelCalls budget ends the run with a final message and a limit marker", async () => {
    const model = new ScriptedChatModel(Array.from({ length: 20 }, (_, i) => ls(i)));
    const agent = createDeepAgent({ model, limits: { modelCalls: 3 } });
    const out = await agent.invoke(user("go"));
    expect(model.used).toBe(3);
    expect(readLimitHit(out)).toMatchObject({ name: "modelCalls", value: 3, used: 3 });
    expect(lastText(out)).toContain("modelCalls budget (3 model calls) is used up");
    expect(lastText(out)).toContain("raise limits.modelCalls");
    // The last reply's calls are refused: the model would never see their results.
    expect(readBudget(out)).toMatchObject({ modelCalls: 3, toolCalls: 2 });
    expect(out.messages.at(-2)?.content).toContain("Not run: The run's modelCalls budget");
  });

  it("a resumed thread continues the count, and a raised limit continues the run", async () => {
    const checkpointer = new MemorySaver();
    const config = { configurable: { thread_id: "t1" } };
    const model = new ScriptedChatModel([ls(1), ls(2), ls(3), ls(4), "done"]);
    const first = createDeepAgent({ model, checkpointer, limits: { modelCalls: 2 } });
    const out1 = await first.invoke(user("go"), config);
    expect(readLimitHit(out1)?.name).toBe("modelCalls");
    // Same limit: the saved count is already at it, so the next run stops at once.
    const again = await first.invoke(user("continue"), config);
    expect(model.used).toBe(2);
    expect(readLimitHit(again)?.used).toBe(2);
    const raised = createDeepAgent({ model, checkpointer, limits: { modelCalls: 10 } });
    const out2 = await raised.invoke(user("continue"), config);
    expect(lastText(out2)).toBe("done");
    expect(readLimitHit(out2)).toBeUndefined();
    expect(readBudget(out2).modelCalls).toBe(5);
  });

  it("counts tokens across a subagent and stops the parent on the tokens budget", async () => {
    const usage = { input_tokens: 400, output_tokens: 100 };
    const model = new ScriptedChatModel([
      {
        toolCalls: [{ name: "task", args: { description: "x", subagent_type: "general-purpose" } }],
        usage,
      },
      { toolCalls: [{ name: "ls", args: { path: "/" } }], usage },
      { text: "sub done", usage },
      { text: "never", usage },
    ]);
    const agent = createDeepAgent({ model, limits: { tokens: 1500 } });
    const out = await agent.invoke(user("go"));
    expect(model.used).toBe(3);
    expect(readBudget(out)).toMatchObject({ modelCalls: 3, tokens: 1500, subagentsTotal: 1 });
    expect(readLimitHit(out)).toMatchObject({ name: "tokens", value: 1500, used: 1500 });
  });

  it("refuses task calls past subagentsPerTurn, fast, with what to do instead", async () => {
    const fanOut = {
      toolCalls: Array.from({ length: 500 }, (_, i) => ({
        name: "task",
        args: { description: `job ${i}`, subagent_type: "general-purpose" },
      })),
    };
    const model = new ScriptedChatModel([fanOut, "a", "b", "c", "all done"]);
    const agent = createDeepAgent({ model, limits: { subagentsPerTurn: 3, loop: false } });
    const started = Date.now();
    const out = await agent.invoke(user("go"));
    expect(Date.now() - started).toBeLessThan(15_000);
    const refused = out.messages.filter((m: any) =>
      String(m.content).includes("At most 3 task calls"),
    );
    expect(refused).toHaveLength(497);
    expect(String(refused[0]?.content)).toContain("send the rest in fewer, larger tasks");
    expect(readBudget(out).subagentsTotal).toBe(3);
    expect(lastText(out)).toBe("all done");
  });

  it("refuses task over subagentDepth and subagentsTotal", async () => {
    const task = (d: string) => ({
      name: "task",
      args: { description: d, subagent_type: "general-purpose" },
    });
    const model = new ScriptedChatModel([
      { toolCalls: [task("1")] },
      "sub",
      { toolCalls: [task("2")] },
      "end",
    ]);
    const agent = createDeepAgent({ model, limits: { subagentsTotal: 1 } });
    const out = await agent.invoke(user("go"));
    expect(
      out.messages.some((m: any) =>
        String(m.content).includes("subagentsTotal budget (1) is used up"),
      ),
    ).toBe(true);
    expect(lastText(out)).toBe("end");
    const deep = new ScriptedChatModel([{ toolCalls: [task("1")] }, "sub", "end"]);
    const none = createDeepAgent({ model: deep, limits: { subagentDepth: 1 } });
    // Depth 1 lets the main agent delegate; a nested call inside would be refused.
    const ok = await none.invoke(user("go"));
    expect(lastText(ok)).toBe("end");
  });

  it("refuses a nested task past subagentDepth with a model-facing error", async () => {
    const call = (type: string) => ({
      toolCalls: [{ name: "task", args: { description: "dig", subagent_type: type } }],
    });
    const model = new ScriptedChatModel([call("planner"), call("worker"), "planner done", "end"]);
    const agent = createDeepAgent({
      model,
      maxSubagentDepth: 2,
      subagents: [
        {
          name: "planner",
          description: "Plans.",
          systemPrompt: "Plan.",
          subagents: [{ name: "worker", description: "Works.", systemPrompt: "Work." }],
        },
      ],
      limits: { subagentDepth: 1 },
    });
    const out = await agent.invoke(user("go"));
    // The planner's own task call was refused, so the worker never ran.
    expect(model.calls[2]?.messages.at(-1)?.content).toContain(
      "Subagents may nest 1 level deep; this task would be level 2. Do the work yourself",
    );
    expect(readBudget(out).subagentsTotal).toBe(1);
    expect(lastText(out)).toBe("end");
  });

  it("a toolCalls budget refuses the call over it and then ends the run", async () => {
    const model = new ScriptedChatModel([ls(1), ls(2), ls(3)]);
    const agent = createDeepAgent({ model, limits: { toolCalls: 1 } });
    const out = await agent.invoke(user("go"));
    // The one call runs; the run then ends before another model call.
    expect(readLimitHit(out)).toMatchObject({ name: "toolCalls", value: 1, used: 1 });
    expect(model.used).toBe(1);
  });

  it("a recursion limit reached reads like a budget: final message and marker, thread kept", async () => {
    const checkpointer = new MemorySaver();
    const model = new ScriptedChatModel(Array.from({ length: 50 }, (_, i) => ls(i)));
    const agent = createDeepAgent({ model, checkpointer, limits: { loop: false } });
    const config = { configurable: { thread_id: "r1" }, recursionLimit: 6 };
    const out = await agent.invoke(user("go"), config);
    expect(readLimitHit(out)).toMatchObject({ name: "recursionLimit", value: 6 });
    expect(lastText(out)).toContain("recursion limit");
    const saved = await (agent as any).getState({ configurable: { thread_id: "r1" } });
    expect(readLimitHit(saved.values)?.name).toBe("recursionLimit");
  });

  it("a run paused for approval keeps its count across the resume", async () => {
    const { Command } = await import("@langchain/langgraph");
    const checkpointer = new MemorySaver();
    const config = { configurable: { thread_id: "a1" } };
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "write_file", args: { file_path: "/a.md", content: "a" } }] },
      ls(1),
      ls(2),
    ]);
    const agent = createDeepAgent({
      model,
      checkpointer,
      interruptOn: { write_file: true },
      limits: { modelCalls: 2 },
    });
    await agent.invoke(user("go"), config);
    const resumed = await agent.invoke(
      new Command({ resume: { decisions: [{ type: "approve" }] } }) as any,
      config,
    );
    // The approved write ran and counted; the second reply's ls was refused at the budget.
    expect(readBudget(resumed)).toMatchObject({ modelCalls: 2, toolCalls: 1 });
    expect(resumed.files["/a.md"]).toBeDefined();
    expect(readLimitHit(resumed)?.name).toBe("modelCalls");
    expect(model.used).toBe(2);
  });

  it("refuses an unknown or invalid limit at construction", () => {
    const model = new ScriptedChatModel([]);
    expect(() => createDeepAgent({ model, limits: { modelCall: 3 } as any })).toThrow(
      /limits.modelCall is not a limit/,
    );
    expect(() => createDeepAgent({ model, limits: { tokens: -1 } })).toThrow(/whole number > 0/);
    expect(() => createDeepAgent({ model, limits: { loop: { repeats: 1 } } })).toThrow(/>= 2/);
  });
});
