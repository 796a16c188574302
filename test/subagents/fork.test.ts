import { HumanMessage } from "@langchain/core/messages";
import { createDeepAgent, toolText } from "delve";
import { ScriptedChatModel } from "delve/testing";
import { describe, expect, it } from "vitest";

// What a subagent's first request holds, isolated and forked, and what comes back.
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
// The turn that delegates: the task call and a sibling call of the same turn.
const delegate = (subagent_type: string) => ({
  text: "Delegating.",
  toolCalls: [
    { name: "task", args: { description: "Summarise /notes.md.", subagent_type }, id: "t1" },
    { name: "glob", args: { pattern: "*.md" }, id: "g1" },
  ],
});
const subagents = [
  { name: "fresh", description: "Fresh context.", systemPrompt: "You are fresh." },
  { name: "twin", description: "Knows the conversation.", mode: "fork" as const },
];

async function firstSubagentRequest(subagent_type: string) {
  const child = new ScriptedChatModel(["child answer"]);
  const model = new ScriptedChatModel([turn1, delegate(subagent_type), "parent done"]);
  const agent = createDeepAgent({
    model,
    systemPrompt: "You are the parent.",
    subagents: subagents.map((s) => ({ ...s, model: child })),
  });
  const out = await agent.invoke({
    messages: [new HumanMessage("What is in my notes?")],
    files: { "/notes.md": "buy milk" },
  });
  return { request: child.calls[0]!.messages, out, model };
}

describe("forked and isolated subagents", () => {
  it("an isolated subagent's first request holds its own prompt and the description only", async () => {
    const { request } = await firstSubagentRequest("fresh");
    expect(plain(request)).toEqual([
      { type: "system", text: "You are fresh.", calls: [] },
      { type: "human", text: "Summarise /notes.md.", calls: [] },
    ]);
  });

  it("a fork's first request holds the parent's prompt and conversation, in-flight calls dropped, the description as the new turn", async () => {
    const { request } = await firstSubagentRequest("twin");
    expect(plain(request)).toEqual([
      { type: "system", text: "You are the parent.", calls: [] },
      { type: "human", text: "What is in my notes?", calls: [] },
      { type: "ai", text: "Looking into it.", calls: ["ls"] },
      { type: "tool", text: expect.stringContaining("notes.md"), calls: [] },
      { type: "ai", text: "Delegating.", calls: [] },
      { type: "human", text: "Summarise /notes.md.", calls: [] },
    ]);
  });

  it("a fork's result comes back as the task's result; its transcript is not merged back", async () => {
    const { out, model } = await firstSubagentRequest("twin");
    const result = out.messages.find((m: any) => m.tool_call_id === "t1");
    expect(toolText(result)).toBe("child answer");
    expect(out.messages.filter((m: any) => m.text === "Summarise /notes.md.")).toEqual([]);
    expect(model.calls[2]!.messages.filter((m: any) => m.getType() === "human")).toHaveLength(1);
  });

  it("a fork that ends without text answers so, never with a message of the parent's", async () => {
    const child = new ScriptedChatModel([""]);
    const model = new ScriptedChatModel([delegate("twin"), "parent done"]);
    const agent = createDeepAgent({
      model,
      subagents: [{ name: "twin", description: "Twin.", mode: "fork", model: child }],
    });
    const out = await agent.invoke({ messages: [new HumanMessage("go")] });
    expect(toolText(out.messages.find((m: any) => m.tool_call_id === "t1"))).toBe(
      "(The subagent finished without a final answer.)",
    );
  });

  it("a fork's file changes merge back, and the parent's permission rules apply inside it", async () => {
    const child = new ScriptedChatModel([
      {
        toolCalls: [
          { name: "write_file", args: { file_path: "/out/summary.md", content: "milk" }, id: "w1" },
          { name: "write_file", args: { file_path: "/secret/x.md", content: "leak" }, id: "w2" },
        ],
      },
      (messages) => `wrote; second: ${messages.at(-1)!.text}`,
    ]);
    const model = new ScriptedChatModel([delegate("twin"), "parent done"]);
    const agent = createDeepAgent({
      model,
      permissions: [{ operations: ["write"], paths: ["/secret/**"], mode: "deny" }],
      subagents: [{ name: "twin", description: "Twin.", mode: "fork", model: child }],
    });
    const out = await agent.invoke({ messages: [new HumanMessage("go")] });
    expect(out.files["/out/summary.md"]?.content).toBe("milk");
    expect(out.files["/secret/x.md"]).toBeUndefined();
    expect(toolText(out.messages.find((m: any) => m.tool_call_id === "t1"))).toMatch(
      /^wrote; second: Error: .*\/secret\/x\.md/,
    );
  });

  it("a fork's own systemPrompt is added after the parent's; the task tool marks forks", async () => {
    const child = new ScriptedChatModel(["ok"]);
    const model = new ScriptedChatModel([delegate("twin"), "done"]);
    const agent = createDeepAgent({
      model,
      systemPrompt: "Parent rules.",
      subagents: [
        {
          name: "twin",
          description: "Twin.",
          mode: "fork",
          systemPrompt: "Be brief.",
          model: child,
        },
      ],
    });
    await agent.invoke({ messages: [new HumanMessage("go")] });
    expect(child.calls[0]!.messages[0]!.text).toBe("Parent rules.\n\nBe brief.");
    const task: any = (agent as any).graph.nodes.tools.bound.tools.find(
      (t: any) => t.name === "task",
    );
    expect(task.description).toContain(
      "It starts with your files and, unless marked fork, none of your conversation",
    );
    expect(task.description).toContain("- twin (fork: starts with this conversation): Twin.");
  });

  it("mode must be isolated or fork", () => {
    expect(() =>
      createDeepAgent({
        model: new ScriptedChatModel([]),
        subagents: [{ name: "x", description: "X.", mode: "clone" as any }],
      }),
    ).toThrow(/mode must be "isolated" or "fork"/);
  });
});
