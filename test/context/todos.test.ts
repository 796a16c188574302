import { createDeepAgent } from "delve";
import { ScriptedChatModel } from "delve/testing";
import { todoListMiddleware } from "langchain";
import { describe, expect, it } from "vitest";

const ask = { messages: [{ role: "user" as const, content: "plan it" }] };

describe("write_todos is opt-in", () => {
  it("the default agent does not show write_todos", async () => {
    const model = new ScriptedChatModel(["ok"]);
    await createDeepAgent({ model }).invoke(ask);
    expect(model.calls[0]!.tools).not.toContain("write_todos");
  });

  it("LangChain's todoListMiddleware in middleware adds write_todos, and it runs", async () => {
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          {
            name: "write_todos",
            args: { todos: [{ content: "Read /kb", status: "in_progress" }] },
          },
        ],
      },
      "ok",
    ]);
    const agent = createDeepAgent({ model, middleware: [todoListMiddleware()] });
    const out = await agent.invoke(ask);
    expect(model.calls[0]!.tools).toContain("write_todos");
    expect(out.todos).toEqual([{ content: "Read /kb", status: "in_progress" }]);
  });
});
