import { HumanMessage } from "@langchain/core/messages";
import { Command, MemorySaver } from "@langchain/langgraph";
import {
  ASK_USER_TOOL_NAME,
  ConfigurationError,
  createDeepAgent,
  pendingQuestions,
  toolText,
} from "delve";
import { ScriptedChatModel } from "delve/testing";
import { describe, expect, it } from "vitest";

const config = (thread: string) => ({ configurable: { thread_id: thread } });
const ask = (args: Record<string, unknown>, id = "q1") => ({
  toolCalls: [{ name: ASK_USER_TOOL_NAME, args, id }],
});
const answerOf = (out: any, id = "q1") =>
  toolText(out.messages.find((m: any) => m.tool_call_id === id));
const agentWith = (model: ScriptedChatModel) =>
  createDeepAgent({ model, askUser: true, checkpointer: new MemorySaver() });

describe("ask_user", () => {
  it("pauses the run with the question; the answer resumes it as the tool's result", async () => {
    const model = new ScriptedChatModel([
      ask({ question: "Which colour?", choices: ["red", "blue"] }),
      (messages) => `Painting it ${messages.at(-1)!.text}`,
    ]);
    const agent = agentWith(model);
    const paused = await agent.invoke({ messages: [new HumanMessage("paint")] }, config("a1"));
    expect(pendingQuestions(paused)).toEqual([
      {
        type: "ask_user",
        question: "Which colour?",
        choices: ["red", "blue"],
        multiSelect: false,
        toolCallId: "q1",
        interruptId: expect.any(String),
      },
    ]);
    expect(model.used).toBe(1);
    expect(pendingQuestions(await agent.getState(config("a1")))).toHaveLength(1);
    const out = await agent.invoke(new Command({ resume: { answer: "blue" } }), config("a1"));
    expect(answerOf(out)).toBe("The user answered: blue");
    expect(out.messages.at(-1)!.text).toBe("Painting it The user answered: blue");
    expect(pendingQuestions(out)).toEqual([]);
    expect(pendingQuestions(await agent.getState(config("a1")))).toEqual([]);
  });

  it("a multi-select question takes a list; a single one refuses two answers and asks again", async () => {
    const model = new ScriptedChatModel([
      ask({ question: "Toppings?", choices: ["ham", "olives", "basil"], multi_select: true }),
      ask({ question: "Size?" }, "q2"),
      "ok",
    ]);
    const agent = agentWith(model);
    await agent.invoke({ messages: [new HumanMessage("pizza")] }, config("a2"));
    const sized = await agent.invoke(
      new Command({ resume: { answer: ["ham", "basil"] } }),
      config("a2"),
    );
    expect(answerOf(sized)).toBe("The user chose: ham, basil");
    const again = await agent.invoke(new Command({ resume: { answer: ["S", "L"] } }), config("a2"));
    expect(pendingQuestions(again)[0]).toMatchObject({
      question: "Size?",
      error: "This question takes one answer; 2 were given.",
    });
    const out = await agent.invoke(new Command({ resume: "L" }), config("a2"));
    expect(answerOf(out, "q2")).toBe("The user answered: L");
  });

  it("a resume value it cannot use re-asks with an error instead of breaking the thread", async () => {
    const model = new ScriptedChatModel([ask({ question: "Name?" }), "thanks"]);
    const agent = agentWith(model);
    await agent.invoke({ messages: [new HumanMessage("hi")] }, config("a3"));
    for (const bad of [{ answer: 5 }, { choice: "x" }, { answer: "  " }, ["a", 1]]) {
      const again = await agent.invoke(new Command({ resume: bad }), config("a3"));
      expect(pendingQuestions(again)[0]!.error).toMatch(/resume value must be|answer is empty/);
    }
    const out = await agent.invoke(new Command({ resume: { answer: "Ada" } }), config("a3"));
    expect(answerOf(out)).toBe("The user answered: Ada");
    expect(out.messages.filter((m: any) => m.tool_call_id === "q1")).toHaveLength(1);
  });

  it("two resumes racing with different answers: the first claimed answer stands, the other is told", async () => {
    const model = new ScriptedChatModel([ask({ question: "Ship?" }), "done", "done"]);
    const agent = agentWith(model);
    await agent.invoke({ messages: [new HumanMessage("go")] }, config("a4"));
    const [a, b] = await Promise.all([
      agent.invoke(new Command({ resume: { answer: "yes" } }), config("a4")),
      agent.invoke(new Command({ resume: { answer: "no" } }), config("a4")),
    ]);
    const outcomes = [a, b].map((out) =>
      pendingQuestions(out).length ? pendingQuestions(out)[0]!.error : answerOf(out),
    );
    expect(outcomes.sort()).toEqual([
      "Already answered: another resume answered this question first, with another answer. This answer was not used.",
      "The user answered: yes",
    ]);
  });

  it("two resumes racing with the same answer both see it, answered once", async () => {
    const model = new ScriptedChatModel([ask({ question: "Ship?" }), "done", "done"]);
    const agent = agentWith(model);
    await agent.invoke({ messages: [new HumanMessage("go")] }, config("a5"));
    const outs = await Promise.all(
      [1, 2].map(() => agent.invoke(new Command({ resume: { answer: "yes" } }), config("a5"))),
    );
    expect(outs.map((o) => answerOf(o))).toEqual([
      "The user answered: yes",
      "The user answered: yes",
    ]);
  });

  it("works in a subagent: the parent pauses with the subagent's question and the answer reaches it", async () => {
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          {
            name: "task",
            args: { description: "ask", subagent_type: "general-purpose" },
            id: "t1",
          },
        ],
      },
      ask({ question: "Deadline?" }, "s1"),
      (messages) => `sub heard: ${messages.at(-1)!.text}`,
      (messages) => `parent heard: ${messages.at(-1)!.text}`,
    ]);
    const agent = agentWith(model);
    const paused = await agent.invoke({ messages: [new HumanMessage("plan")] }, config("a6"));
    expect(pendingQuestions(paused).map((q) => [q.question, q.toolCallId])).toEqual([
      ["Deadline?", "s1"],
    ]);
    const out = await agent.invoke(new Command({ resume: { answer: "Friday" } }), config("a6"));
    expect(out.messages.at(-1)!.text).toBe("parent heard: sub heard: The user answered: Friday");
    expect(model.used).toBe(4);
  });

  it("two questions at once (parallel subagents) can be answered one at a time; the state lists only the open one", async () => {
    const asker = (q: string) =>
      new ScriptedChatModel([
        ask({ question: q }, q),
        (messages) => `${q} heard: ${messages.at(-1)!.text}`,
      ]);
    const task = (subagent_type: string, id: string) => ({
      name: "task",
      args: { description: "ask", subagent_type },
      id,
    });
    const model = new ScriptedChatModel([
      { toolCalls: [task("a", "t1"), task("b", "t2")] },
      (messages) =>
        messages
          .filter((m) => m.getType() === "tool")
          .map((m) => m.text)
          .join(" | "),
    ]);
    const agent = createDeepAgent({
      model,
      askUser: true,
      checkpointer: new MemorySaver(),
      subagents: [
        { name: "a", description: "A.", systemPrompt: "A.", model: asker("qa") },
        { name: "b", description: "B.", systemPrompt: "B.", model: asker("qb") },
      ],
    });
    await agent.invoke({ messages: [new HumanMessage("go")] }, config("a7"));
    const both = pendingQuestions(await agent.getState(config("a7")));
    expect(both.map((q) => q.question).sort()).toEqual(["qa", "qb"]);
    const qa = both.find((q) => q.question === "qa")!;
    await agent.invoke(
      new Command({ resume: { [qa.interruptId!]: { answer: "A" } } }),
      config("a7"),
    );
    const left = pendingQuestions(await agent.getState(config("a7")));
    expect(left.map((q) => q.question)).toEqual(["qb"]);
    const out = await agent.invoke(
      new Command({ resume: { [left[0]!.interruptId!]: { answer: "B" } } }),
      config("a7"),
    );
    expect(out.messages.at(-1)!.text).toBe(
      "qa heard: The user answered: A | qb heard: The user answered: B",
    );
  });

  it("is opt-in, and needs a checkpointer", async () => {
    const plain = createDeepAgent({ model: new ScriptedChatModel([]) });
    expect((plain as any).graph.nodes.tools.bound.tools.map((t: any) => t.name)).not.toContain(
      ASK_USER_TOOL_NAME,
    );
    const build = () => createDeepAgent({ model: new ScriptedChatModel([]), askUser: true });
    expect(build).toThrow(ConfigurationError);
    expect(build).toThrow(/askUser pauses the run/);
    expect(() =>
      createDeepAgent({ model: new ScriptedChatModel([]), askUser: "yes" as any }),
    ).toThrow(/askUser must be true, false, or \{ description \}/);
  });
});
