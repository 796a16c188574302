import { createDeepAgent, type FileData } from "delve";
import { ScriptedChatModel } from "delve/testing";
import { todoListMiddleware } from "langchain";
import { describe, expect, expectTypeOf, it } from "vitest";

describe("invoke() is typed with Delve's state", () => {
  it("files and messages are typed on the way in and out; a typo does not compile", async () => {
    const agent = createDeepAgent({ model: new ScriptedChatModel(["ok"]) });
    const out = await agent.invoke({
      messages: [{ role: "user", content: "hi" }],
      files: { "/a.md": "seed" },
    });
    expectTypeOf(out.files).toEqualTypeOf<Record<string, FileData>>();
    expect(out.files["/a.md"]?.content).toBe("seed");
    expect(out.messages.at(-1)?.text).toBe("ok");
    // @ts-expect-error a misspelt state key is a type error
    const typo = () => agent.invoke({ messages: [], fils: {} });
    expect(typeof typo).toBe("function");
  });

  it("the state of middleware passed in middleware is typed too", async () => {
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          { name: "write_todos", args: { todos: [{ content: "a", status: "pending" }] } },
        ],
      },
      "done",
    ]);
    const agent = createDeepAgent({ model, middleware: [todoListMiddleware()] });
    const out = await agent.invoke({ messages: [{ role: "user", content: "plan" }] });
    expectTypeOf(out.todos).not.toBeAny();
    expect(out.todos).toEqual([{ content: "a", status: "pending" }]);
  });
});
