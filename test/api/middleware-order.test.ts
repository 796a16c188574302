import { MemorySaver } from "@langchain/langgraph";
import { createDeepAgent, MIDDLEWARE_ORDER, ScriptedChatModel } from "delve";
import { createMiddleware } from "langchain";
import { describe, expect, it } from "vitest";
import { getTicketTool } from "../helpers/tickets.js";

// The names createAgent received, in order: the stack as LangChain runs it (first = outermost).
const stackOf = (agent: unknown): string[] =>
  (agent as { options: { middleware: { name: string }[] } }).options.middleware.map((m) => m.name);

const passThrough = (name: string) =>
  createMiddleware({ name, wrapModelCall: (request, handler) => handler(request) });

describe("the default middleware order", () => {
  it("an agent with every optional layer on has exactly MIDDLEWARE_ORDER, in order", () => {
    const agent = createDeepAgent({
      model: new ScriptedChatModel(["done"]),
      middleware: [passThrough("UserMiddleware")],
      debug: true,
      checkpointer: new MemorySaver(),
      interruptOn: { write_file: true },
      memory: ["/AGENTS.md"],
      skills: ["/skills/"],
      profile: { extraMiddleware: [passThrough("ProfileMiddleware")], excludedTools: ["grep"] },
      tools: [getTicketTool()],
      deferTools: true,
      askUser: true,
    });
    const fill: Record<string, string> = {
      middleware: "UserMiddleware",
      "profile.extraMiddleware": "ProfileMiddleware",
    };
    const expected = MIDDLEWARE_ORDER.map((slot) =>
      slot.kind === "layer" ? slot.name : fill[slot.name],
    );
    expect(stackOf(agent)).toEqual(expected);
  });

  it("a default agent's stack follows the same order, with the optional layers left out", () => {
    const names = stackOf(createDeepAgent({ model: new ScriptedChatModel(["done"]) }));
    const order = MIDDLEWARE_ORDER.map((slot) => slot.name);
    expect(names).toEqual(order.filter((name) => names.includes(name)));
    expect(names).toEqual([
      "ToolErrorsMiddleware",
      "EvictionMiddleware",
      "FilesystemMiddleware",
      "SubAgentMiddleware",
      "PatchToolCallsMiddleware",
      "SummarizationMiddleware",
      "SurfaceProbe",
      "ProviderRequestMiddleware",
    ]);
  });
});
