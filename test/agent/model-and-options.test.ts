import {
  ConfigurationError,
  createDeepAgent,
  inspectSurface,
  LazyChatModel,
  MissingProviderError,
} from "delve";
import { ScriptedChatModel } from "delve/testing";
import { describe, expect, it } from "vitest";

describe("models given as strings", () => {
  it("an agent on a provider string builds and inspects with no provider package and no key", async () => {
    const agent = createDeepAgent({ model: "deepseek:deepseek-v4-flash" });
    const report = await inspectSurface(agent);
    expect(report.visible).toContain("read_file");
    expect(report.modelKey).toBe("deepseek:deepseek-v4-flash");
  });

  it("the first real call without the package names the package to install", async () => {
    const agent = createDeepAgent({ model: "deepseek:deepseek-v4-flash" });
    const error = await agent
      .invoke({ messages: [{ role: "user", content: "hi" }] })
      .catch((e: unknown) => e);
    const root = findCause(error, MissingProviderError.isInstance);
    expect(root).toBeDefined();
    expect((root as MissingProviderError).packageName).toBe("@langchain/deepseek");
    expect((root as Error).message).toMatch(/npm install @langchain\/deepseek/);
  });

  it("seed spellings resolve through the alias table", () => {
    expect(new LazyChatModel("google_genai:gemini-3-pro").spec).toMatchObject({
      provider: "google-genai",
      packageName: "@langchain/google-genai",
      key: "google-genai:gemini-3-pro",
    });
    expect(new LazyChatModel("google-genai:gemini-3-pro").spec.provider).toBe("google-genai");
    expect(new LazyChatModel("openai:gpt-5.5").spec.packageName).toBe("@langchain/openai");
  });

  it("a malformed or unknown provider string fails at construction", () => {
    expect(() => createDeepAgent({ model: "gpt-5.5" })).toThrow(/must be written "provider:model"/);
    expect(() => createDeepAgent({ model: "acme:brain-1" })).toThrow(
      /Unknown model provider "acme"/,
    );
  });

  it("no model is a construction error that says what to pass", () => {
    expect(() => createDeepAgent({} as any)).toThrow(/model is required/);
  });
});

describe("options", () => {
  it("an unknown option throws and names the nearest valid key", () => {
    let error: unknown;
    try {
      createDeepAgent({ model: new ScriptedChatModel([]), systemPromt: "hi" } as any);
    } catch (e) {
      error = e;
    }
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect((error as ConfigurationError).code).toBe("UNKNOWN_OPTION");
    expect((error as Error).message).toMatch(/Did you mean "systemPrompt"\?/);
  });

  it("a cache that is not a LangGraph cache is refused at construction", () => {
    expect(() => createDeepAgent({ model: new ScriptedChatModel([]), cache: true as any })).toThrow(
      /cache must be a LangGraph cache/,
    );
  });

  it("a bad toolErrors or onToolNameConflict value fails at construction", () => {
    const model = new ScriptedChatModel([]);
    expect(() => createDeepAgent({ model, toolErrors: "yes" as any })).toThrow(
      /toolErrors must be/,
    );
    expect(() => createDeepAgent({ model, onToolNameConflict: "loud" as any })).toThrow(
      /onToolNameConflict must be/,
    );
  });

  it("the system prompt reaches the model as given, with nothing authored added", async () => {
    const agent = createDeepAgent({
      model: new ScriptedChatModel([]),
      systemPrompt: "You triage tickets.",
    });
    const report = await inspectSurface(agent);
    expect(report.systemPrompt).toBe("You triage tickets.");
  });
});

function findCause(error: unknown, test: (e: unknown) => boolean): unknown {
  let current = error;
  for (let i = 0; i < 10 && current; i++) {
    if (test(current)) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
