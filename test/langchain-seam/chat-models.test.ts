import { ChatAnthropic } from "@langchain/anthropic";
import { ChatOpenAI } from "@langchain/openai";
import { initChatModel } from "langchain/chat_models/universal";
import { describe, expect, it } from "vitest";
import {
  boundModel,
  configuredModelInstance,
  llmTypeOf,
  unwrapModelOnce,
  usesOpenAiResponses,
} from "../../src/langchain-seam/chat-models.js";

const openai = () => new ChatOpenAI({ model: "gpt-5.5", apiKey: "sk-test" });

describe("chat model internals, as Delve reads them", () => {
  it("initChatModel's ConfigurableModel builds the concrete class with _getModelInstance()", async () => {
    const universal = await initChatModel("gpt-5.5", {
      modelProvider: "openai",
      apiKey: "sk-test",
    });
    const real = await configuredModelInstance(universal);
    expect(
      real,
      "langchain's ConfigurableModel has _getModelInstance() returning the concrete model",
    ).toBeInstanceOf(ChatOpenAI);
  });

  it("withConfig wraps a chat model in a RunnableBinding's `bound`", async () => {
    // ChatOpenAI overrides withConfig with a copy of itself; most chat models do not.
    const model = new ChatAnthropic({ model: "claude-sonnet-4-6", apiKey: "x" });
    expect(
      boundModel(model.withConfig({ tags: ["x"] })),
      "RunnableBinding keeps its model in `bound`",
    ).toBe(model);
    expect(await unwrapModelOnce(model.withConfig({ tags: ["x"] }))).toBe(model);
    expect(boundModel(model)).toBeUndefined();
  });

  it("_llmType() names the provider", () => {
    expect(llmTypeOf(openai()), 'ChatOpenAI._llmType() is "openai"').toBe("openai");
    expect(
      llmTypeOf(new ChatAnthropic({ model: "claude-sonnet-4-6", apiKey: "x" })),
      'ChatAnthropic._llmType() is "anthropic"',
    ).toBe("anthropic");
  });

  it("ChatOpenAI decides per call whether it speaks the Responses API", () => {
    const chat = openai();
    expect(
      typeof (chat as unknown as { _useResponsesApi?: unknown })._useResponsesApi,
      "ChatOpenAI has _useResponsesApi({ tools })",
    ).toBe("function");
    expect(usesOpenAiResponses(chat, [])).toBe(false);
    expect(
      usesOpenAiResponses(
        new ChatOpenAI({ model: "gpt-5.5", apiKey: "x", useResponsesApi: true }),
        [],
      ),
    ).toBe(true);
    expect(
      usesOpenAiResponses(chat, [{ type: "web_search_preview" }]),
      "a built-in tool sends ChatOpenAI to the Responses API",
    ).toBe(true);
  });
});
