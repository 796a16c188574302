import { HumanMessage } from "@langchain/core/messages";
import { Command, MemorySaver } from "@langchain/langgraph";
import { createDeepAgent, toolText } from "delve";
import { ScriptedChatModel } from "delve/testing";
import { describe, expect, it } from "vitest";
import { InvalidDecisionError, readPause, resumeOf } from "../../src/run/pause.js";

// The engine's reading of a pause that holds an approval and a question at once (two
// parallel subagents), and the one resume that answers both.

async function mixedPause() {
  const asker = new ScriptedChatModel([
    {
      toolCalls: [
        { name: "ask_user", args: { question: "Which tone?", choices: ["dry", "warm"] }, id: "q1" },
      ],
    },
    (messages) => `asker heard: ${messages.at(-1)!.text}`,
  ]);
  const writer = new ScriptedChatModel([
    { toolCalls: [{ name: "write_file", args: { file_path: "/a.md", content: "a" }, id: "w1" }] },
    (messages) => `writer got: ${messages.at(-1)!.text.slice(0, 20)}`,
  ]);
  const task = (subagent_type: string, id: string) => ({
    name: "task",
    args: { description: `do ${subagent_type}`, subagent_type },
    id,
  });
  const model = new ScriptedChatModel([
    { toolCalls: [task("asker", "t1"), task("writer", "t2")] },
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
    interruptOn: { write_file: true },
    subagents: [
      { name: "asker", description: "Asks.", systemPrompt: "Ask.", model: asker },
      { name: "writer", description: "Writes.", systemPrompt: "Write.", model: writer },
    ],
  });
  const config = { configurable: { thread_id: "mixed" } };
  await agent.invoke({ messages: [new HumanMessage("go")] }, config);
  return { agent, config, pause: readPause(await agent.getState(config), "/ws") };
}

describe("a pause with an approval and a question", () => {
  it("lists the approval in calls and the question in questions", async () => {
    const { pause } = await mixedPause();
    expect(pause.calls.map((c) => [c.tool, c.args])).toEqual([
      ["write_file", { file_path: "/a.md", content: "a" }],
    ]);
    expect(pause.questions).toEqual([
      { call_id: "q1", question: "Which tone?", choices: ["dry", "warm"] },
    ]);
  });

  it("refuses decisions that do not fit, saying what to give", async () => {
    const { pause } = await mixedPause();
    const refused = (decisions: any[]) => {
      try {
        resumeOf(pause, decisions);
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidDecisionError);
        return (error as Error).message;
      }
      return "accepted";
    };
    expect(refused([{ type: "approve" }])).toBe(
      "the thread waits on 1 approval(s) and 1 question(s); 1 decision(s) were given (one each: approvals first, then answers, in order).",
    );
    expect(refused([{ type: "answer", text: "dry" }, { type: "approve" }])).toMatch(
      /waits for an approval: approve, edit or reject it, not answer/,
    );
    expect(refused([{ type: "approve" }, { type: "approve" }])).toBe(
      'call q1 asks a question ("Which tone?"): answer it (delve answer), it takes no approve.',
    );
    expect(refused([{ type: "approve" }, { type: "answer", choices: ["cold"] }])).toBe(
      '"cold" is not a choice of "Which tone?"; the choices are: "dry", "warm" (or answer in your own words).',
    );
    expect(refused([{ type: "approve" }, { type: "answer", text: "  " }])).toBe(
      "the answer is empty: give text or a choice.",
    );
  });

  it("one resume answers both: the call runs and the question's answer reaches its subagent", async () => {
    const { agent, config, pause } = await mixedPause();
    const resume = resumeOf(pause, [{ type: "approve" }, { type: "answer", choices: ["warm"] }]);
    const out = await agent.invoke(new Command({ resume }), config);
    expect(out.__interrupt__ ?? []).toEqual([]);
    expect(toolText(out.messages.find((m: any) => m.tool_call_id === "t1"))).toBe(
      "asker heard: The user answered: warm",
    );
    expect(toolText(out.messages.find((m: any) => m.tool_call_id === "t2"))).toMatch(
      /^writer got: /,
    );
    expect(out.files["/a.md"]).toBeDefined();
  });
});
