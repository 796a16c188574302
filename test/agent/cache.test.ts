import { MemorySaver } from "@langchain/langgraph";
import { InMemoryCache } from "@langchain/langgraph-checkpoint";
import { createDeepAgent, ScriptedChatModel } from "delve";
import { describe, expect, it } from "vitest";

const ask = (content: string) => ({ messages: [{ role: "user" as const, content }] });
const lastText = (out: { messages: { content: unknown }[] }) => out.messages.at(-1)?.content;

describe("the cache option", () => {
  it("the same conversation asked twice calls the model once: the second answer is the cached one", async () => {
    const model = new ScriptedChatModel(["first answer", "second answer"]);
    const agent = createDeepAgent({ model, cache: new InMemoryCache() });
    const one = await agent.invoke(ask("What is our refund policy?"));
    const two = await agent.invoke(ask("What is our refund policy?"));
    expect(model.calls).toHaveLength(1);
    expect(lastText(two)).toBe("first answer");
    expect(lastText(one)).toBe("first answer");
  });

  it("a different question, or a different agent sharing the cache, calls the model", async () => {
    const cache = new InMemoryCache();
    const model = new ScriptedChatModel(["a", "b"]);
    const agent = createDeepAgent({ model, cache });
    await agent.invoke(ask("one"));
    await agent.invoke(ask("two"));
    expect(model.calls).toHaveLength(2);
    const other = new ScriptedChatModel(["c"]);
    const otherAgent = createDeepAgent({ model: other, cache, systemPrompt: "You are terse." });
    expect(lastText(await otherAgent.invoke(ask("one")))).toBe("c");
    expect(other.calls).toHaveLength(1);
  });

  it("tools always run: a cached model turn's tool call executes again", async () => {
    const turn = () => ({
      toolCalls: [{ name: "write_file", args: { file_path: "/note.md", content: "hi" } }],
    });
    const model = new ScriptedChatModel([turn(), "written"]);
    const agent = createDeepAgent({ model, cache: new InMemoryCache() });
    const one = await agent.invoke(ask("Write the note."));
    const two = await agent.invoke(ask("Write the note."));
    expect(model.calls).toHaveLength(2);
    expect(Object.keys(one.files)).toEqual(["/note.md"]);
    expect(Object.keys(two.files)).toEqual(["/note.md"]);
    expect(lastText(two)).toBe("written");
  });

  it("a subagent's model calls are cached too: the same delegation twice costs three calls in all", async () => {
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          {
            name: "task",
            args: { description: "Summarise T-1", subagent_type: "general-purpose" },
          },
        ],
      },
      "T-1 is a refund request.",
      "Done: T-1 is a refund request.",
    ]);
    const agent = createDeepAgent({ model, cache: new InMemoryCache() });
    const one = await agent.invoke(ask("Brief me on T-1"));
    const two = await agent.invoke(ask("Brief me on T-1"));
    expect(model.calls).toHaveLength(3);
    expect(lastText(two)).toBe(lastText(one));
  });

  it("without a cache every call reaches the model", async () => {
    const model = new ScriptedChatModel(["x", "y"]);
    const agent = createDeepAgent({ model, checkpointer: new MemorySaver() });
    await agent.invoke(ask("same"), { configurable: { thread_id: "a" } });
    await agent.invoke(ask("same"), { configurable: { thread_id: "b" } });
    expect(model.calls).toHaveLength(2);
  });
});
