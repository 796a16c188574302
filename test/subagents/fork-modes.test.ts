import { HumanMessage } from "@langchain/core/messages";
import { Command, MemorySaver } from "@langchain/langgraph";
import { createDeepAgent, GENERAL_PURPOSE_SUBAGENT, toolText } from "delve";
import { ScriptedChatModel } from "delve/testing";
import { describe, expect, it } from "vitest";

// `mode` beyond declarative specs: the general-purpose subagent (profile
// generalPurposeSubagent.mode) and compiled subagents. Each test pins the subagent's first
// request (or input) exactly.
const plain = (messages: any[]) =>
  messages.map((m) => ({
    type: m.getType(),
    text: m.text,
    calls: (m.tool_calls ?? []).map((c: any) => c.name),
  }));
const turn1 = {
  text: "Looking into it.",
  toolCalls: [{ name: "ls", args: { path: "/" }, id: "ls1" }],
};
const delegate = (subagent_type: string) => ({
  text: "Delegating.",
  toolCalls: [
    { name: "task", args: { description: "Summarise /notes.md.", subagent_type }, id: "t1" },
  ],
});
const conversation = [
  { type: "human", text: "What is in my notes?", calls: [] },
  { type: "ai", text: "Looking into it.", calls: ["ls"] },
  { type: "tool", text: expect.stringContaining("notes.md"), calls: [] },
  { type: "ai", text: "Delegating.", calls: [] },
  { type: "human", text: "Summarise /notes.md.", calls: [] },
];
const input = () => ({
  messages: [new HumanMessage("What is in my notes?")],
  files: { "/notes.md": "buy milk" },
});

async function generalPurpose(mode?: "isolated" | "fork") {
  // The general-purpose subagent runs on the parent's model: its call is the third.
  const model = new ScriptedChatModel([
    turn1,
    delegate(GENERAL_PURPOSE_SUBAGENT),
    "gp answer",
    "parent done",
  ]);
  const agent = createDeepAgent({
    model,
    systemPrompt: "You are the parent.",
    ...(mode ? { profile: { generalPurposeSubagent: { mode } } } : {}),
  });
  const out = await agent.invoke(input());
  return { request: model.calls[2]!.messages, out, agent };
}

describe("the general-purpose subagent's mode", () => {
  it("isolated (default): its own prompt and the description only", async () => {
    const { request } = await generalPurpose();
    expect(plain(request)).toEqual([
      { type: "system", text: expect.stringMatching(/^You are a subagent\./), calls: [] },
      { type: "human", text: "Summarise /notes.md.", calls: [] },
    ]);
  });

  it("fork: the parent's prompt and conversation, the description as the new turn; only its answer returns", async () => {
    const { request, out, agent } = await generalPurpose("fork");
    expect(plain(request)).toEqual([
      { type: "system", text: "You are the parent.", calls: [] },
      ...conversation,
    ]);
    expect(toolText(out.messages.find((m: any) => m.tool_call_id === "t1"))).toBe("gp answer");
    expect(out.messages.filter((m: any) => m.text === "Summarise /notes.md.")).toEqual([]);
    const task: any = (agent as any).graph.nodes.tools.bound.tools.find(
      (t: any) => t.name === "task",
    );
    expect(task.description).toContain(
      `- ${GENERAL_PURPOSE_SUBAGENT} (fork: starts with this conversation):`,
    );
  });

  it("a forked general-purpose subagent's systemPrompt is added after the parent's", async () => {
    const model = new ScriptedChatModel([delegate(GENERAL_PURPOSE_SUBAGENT), "gp", "done"]);
    const agent = createDeepAgent({
      model,
      systemPrompt: "Parent rules.",
      profile: { generalPurposeSubagent: { mode: "fork", systemPrompt: "Be brief." } },
    });
    await agent.invoke({ messages: [new HumanMessage("go")] });
    expect(model.calls[1]!.messages[0]!.text).toBe("Parent rules.\n\nBe brief.");
  });

  it("mode is checked at construction", () => {
    expect(() =>
      createDeepAgent({
        model: new ScriptedChatModel([]),
        profile: { generalPurposeSubagent: { mode: "clone" as any } },
      }),
    ).toThrow(/generalPurposeSubagent\.mode must be "isolated" or "fork"/);
  });
});

async function compiled(mode?: "isolated" | "fork") {
  const child = new ScriptedChatModel(["compiled answer"]);
  const runnable = createDeepAgent({ model: child, systemPrompt: "You are compiled." });
  const model = new ScriptedChatModel([turn1, delegate("reviewer"), "parent done"]);
  const agent = createDeepAgent({
    model,
    systemPrompt: "You are the parent.",
    subagents: [{ name: "reviewer", description: "Reviews.", runnable, ...(mode ? { mode } : {}) }],
  });
  const out = await agent.invoke(input());
  return { request: child.calls[0]!.messages, out };
}

describe("a compiled subagent's mode", () => {
  it("isolated (default): its own prompt and the description only", async () => {
    const { request } = await compiled();
    expect(plain(request)).toEqual([
      { type: "system", text: "You are compiled.", calls: [] },
      { type: "human", text: "Summarise /notes.md.", calls: [] },
    ]);
  });

  it("fork: its own prompt, then the parent's conversation and the description; only its answer returns", async () => {
    const { request, out } = await compiled("fork");
    expect(plain(request)).toEqual([
      { type: "system", text: "You are compiled.", calls: [] },
      ...conversation,
    ]);
    expect(toolText(out.messages.find((m: any) => m.tool_call_id === "t1"))).toBe(
      "compiled answer",
    );
    expect(out.messages.filter((m: any) => m.text === "Summarise /notes.md.")).toEqual([]);
  });

  it("mode is checked at construction", () => {
    expect(() =>
      createDeepAgent({
        model: new ScriptedChatModel([]),
        subagents: [
          {
            name: "r",
            description: "R.",
            runnable: createDeepAgent({ model: new ScriptedChatModel([]) }),
            mode: "twin" as any,
          },
        ],
      }),
    ).toThrow(/mode must be "isolated" or "fork"/);
  });
});

describe("ask_user inside a forked general-purpose subagent", () => {
  it("the parent pauses with the fork's question; the answer reaches the fork", async () => {
    const model = new ScriptedChatModel([
      delegate(GENERAL_PURPOSE_SUBAGENT),
      { toolCalls: [{ name: "ask_user", args: { question: "Which note?" }, id: "q1" }] },
      (messages) => `fork heard: ${messages.at(-1)!.text}`,
      (messages) => `parent heard: ${messages.at(-1)!.text}`,
    ]);
    const agent = createDeepAgent({
      model,
      askUser: true,
      checkpointer: new MemorySaver(),
      profile: { generalPurposeSubagent: { mode: "fork" } },
    });
    const config = { configurable: { thread_id: "fork-ask" } };
    const paused = await agent.invoke({ messages: [new HumanMessage("go")] }, config);
    expect(paused.__interrupt__?.[0]?.value).toMatchObject({ question: "Which note?" });
    // The fork's question was asked with the parent's conversation in front of it.
    expect(plain(model.calls[1]!.messages).map((m) => m.text)).toEqual([
      "go",
      "Delegating.",
      "Summarise /notes.md.",
    ]);
    const out = await agent.invoke(new Command({ resume: { answer: "the first" } }), config);
    expect(out.messages.at(-1)!.text).toBe(
      "parent heard: fork heard: The user answered: the first",
    );
  });
});
