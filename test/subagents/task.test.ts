import { SystemMessage, ToolMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph";
import { filesystemMiddleware, ScriptedChatModel } from "delve";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import {
  GENERAL_PURPOSE_DESCRIPTION,
  GENERAL_PURPOSE_PROMPT,
  GENERAL_PURPOSE_SUBAGENT,
} from "../../src/subagents/middleware.js";
import { createTaskTool } from "../../src/subagents/task.js";
import { surfaceText } from "../filesystem/tools/fs-harness.js";

/** `task` over a general-purpose subagent: a real agent with the file tools on `model`. */
function taskTool(model: ScriptedChatModel) {
  const runnable = createAgent({
    model,
    tools: [],
    systemPrompt: GENERAL_PURPOSE_PROMPT,
    middleware: [filesystemMiddleware()] as any,
  });
  return createTaskTool([
    { name: GENERAL_PURPOSE_SUBAGENT, description: GENERAL_PURPOSE_DESCRIPTION, runnable },
  ]) as any;
}

describe("task", () => {
  it("the model-facing text with the general-purpose subagent", () => {
    const tool = taskTool(new ScriptedChatModel([]));
    expect(surfaceText([tool])).toMatchInlineSnapshot(`
      "## task
      Delegate a self-contained task to a subagent. It starts with your files but none of your conversation, works on its own, and returns one final answer that only you see (tell the user what matters): write the task fully. Use for multi-step work whose details you do not need; several task calls in one message run in parallel. Not for a single quick step.
      Subagents:
      - general-purpose: any multi-step task; same tools as you, fresh context.
      {"type":"object","properties":{"description":{"type":"string","minLength":1,"description":"The whole task: goal, inputs, expected result."},"subagent_type":{"type":"string","enum":["general-purpose"]}},"required":["description","subagent_type"]}"
    `);
  });

  it("runs the subagent on a fresh conversation and returns its last non-empty text", async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "ls", args: { path: "/" } }] },
      { text: "Nothing to summarise: the workspace is empty." },
    ]);
    const reply = await taskTool(model).invoke({
      id: "t1",
      name: "task",
      args: { description: "Summarise the workspace.", subagent_type: "general-purpose" },
      type: "tool_call",
    });
    expect(reply).toBeInstanceOf(ToolMessage);
    expect(reply.tool_call_id).toBe("t1");
    expect(reply.content).toBe("Nothing to summarise: the workspace is empty.");
    // The subagent saw only the task, not a parent conversation.
    const seen = model.calls[0]!.messages.filter((m) => !SystemMessage.isInstance(m));
    expect(seen.map((m) => m.text)).toEqual(["Summarise the workspace."]);
  });

  it("files the subagent writes come back to the parent as a state update", async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "write_file", args: { file_path: "/out.md", content: "done\n" } }] },
      "Wrote /out.md.",
    ]);
    const reply = await taskTool(model).invoke({
      id: "t2",
      name: "task",
      args: { description: "Write /out.md.", subagent_type: "general-purpose" },
      type: "tool_call",
    });
    expect(reply).toBeInstanceOf(Command);
    const update = (reply as Command).update as { files: Record<string, any>; messages: any[] };
    expect(Object.keys(update.files)).toEqual(["/out.md"]);
    expect(update.files["/out.md"].content).toBe("done\n");
    expect(update.messages[0].content).toBe("Wrote /out.md.");
    expect(update.messages[0].tool_call_id).toBe("t2");
  });

  it("a subagent that ends without text says so instead of returning nothing", async () => {
    const model = new ScriptedChatModel([""]);
    const reply = await taskTool(model).invoke({
      id: "t3",
      name: "task",
      args: { description: "Do nothing.", subagent_type: "general-purpose" },
      type: "tool_call",
    });
    expect(reply.content).toBe("(The subagent finished without a final answer.)");
  });
});
