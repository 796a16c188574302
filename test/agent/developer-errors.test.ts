import { ConfigurationError, createDeepAgent, MissingProviderError } from "delve";
import { ScriptedChatModel } from "delve/testing";
import { describe, expect, it } from "vitest";

const user = (content: string) => ({ messages: [{ role: "user" as const, content }] });

describe("developer errors reach the caller as the Delve error itself", () => {
  it("a missing provider package: invoke and stream throw MissingProviderError, not its wrappers", async () => {
    const agent = createDeepAgent({ model: "deepseek:deepseek-chat" });
    const caught = await agent.invoke(user("hi")).catch((e: unknown) => e);
    expect(MissingProviderError.isInstance(caught)).toBe(true);
    expect(caught).toBeInstanceOf(MissingProviderError);
    expect((caught as MissingProviderError).packageName).toBe("@langchain/deepseek");
    let streamed: unknown;
    try {
      for await (const _ of await agent.stream(user("hi"))) {
        // reading the stream is what fails
      }
    } catch (error) {
      streamed = error;
    }
    expect(streamed).toBeInstanceOf(MissingProviderError);
  });

  it("a subagent whose model package is missing fails the run, not the model's turn", async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "task", args: { description: "go", subagent_type: "helper" } }] },
      "done",
    ]);
    const agent = createDeepAgent({
      model,
      subagents: [
        {
          name: "helper",
          description: "Helps.",
          systemPrompt: "Help.",
          model: "deepseek:deepseek-chat",
        },
      ],
    });
    await expect(agent.invoke(user("x"))).rejects.toBeInstanceOf(MissingProviderError);
  });

  it("a compiled subagent whose graph returns no messages is a ConfigurationError, not an empty answer", async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "task", args: { description: "go", subagent_type: "bare" } }] },
      "done",
    ]);
    const bare = {
      name: "bare",
      description: "Returns only files.",
      runnable: { invoke: async () => ({ files: {} }) },
    };
    const caught = await createDeepAgent({ model, subagents: [bare] })
      .invoke(user("x"))
      .catch((e: unknown) => e);
    expect(ConfigurationError.isInstance(caught)).toBe(true);
    expect((caught as ConfigurationError).code).toBe("SUBAGENT_NO_MESSAGES");
    expect(String((caught as Error).message)).toContain('subagent "bare" returned no "messages"');
  });
});
