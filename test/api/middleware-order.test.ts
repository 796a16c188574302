import { MemorySaver } from "@langchain/langgraph";
import { createDeepAgent, MIDDLEWARE_ORDER, ScriptedChatModel } from "delve";
import { createMiddleware } from "langchain";
import { describe, expect, it, vi } from "vitest";
import { getTicketTool } from "../helpers/tickets.js";

// Every stack createAgent compiles (the agent, its probe, the general-purpose subagent,
// declarative subagents), by the agent name it was given: the stack as LangChain runs it.
const compiled = vi.hoisted(() => [] as Array<{ name?: string; middleware: string[] }>);
vi.mock("langchain", async (importOriginal) => {
  const real = await importOriginal<typeof import("langchain")>();
  return {
    ...real,
    createAgent: ((params: { name?: string; middleware?: { name: string }[] }) => {
      compiled.push({
        name: params.name,
        middleware: (params.middleware ?? []).map((m) => m.name),
      });
      return real.createAgent(params as never);
    }) as unknown as typeof real.createAgent,
  };
});

// The names createAgent received for the agent returned (first = outermost).
const stackOf = (agent: unknown): string[] =>
  (agent as { options: { middleware: { name: string }[] } }).options.middleware.map((m) => m.name);

const stacksNamed = (name: string) =>
  compiled.filter((c) => c.name === name).map((c) => c.middleware);

const passThrough = (name: string) =>
  createMiddleware({ name, wrapModelCall: (request, handler) => handler(request) });

const ORDER = MIDDLEWARE_ORDER.map((slot) => slot.name as string);
// A stack follows MIDDLEWARE_ORDER when its Delve layers appear in that order.
const inOrder = (names: string[], fill: Record<string, string>) => {
  const slotOf = (name: string) =>
    ORDER.indexOf(Object.entries(fill).find(([, v]) => v === name)?.[0] ?? name);
  const slots = names.map(slotOf);
  expect(slots, `unknown layer in ${names.join(", ")}`).not.toContain(-1);
  expect(slots, names.join(", ")).toEqual([...slots].sort((a, b) => a - b));
};

const everything = () => ({
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

describe("the default middleware order", () => {
  it("an agent with every optional layer on has exactly MIDDLEWARE_ORDER, in order", () => {
    const agent = createDeepAgent(everything());
    const expected = MIDDLEWARE_ORDER.map((slot) =>
      slot.kind === "layer" ? slot.name : fill[slot.name],
    );
    expect(stackOf(agent)).toEqual(expected);
  });

  it("a default agent's stack follows the same order, with the optional layers left out", () => {
    const names = stackOf(createDeepAgent({ model: new ScriptedChatModel(["done"]) }));
    expect(names).toEqual(ORDER.filter((name) => names.includes(name)));
    expect(names).toEqual([
      "ToolErrorsMiddleware",
      "EvictionMiddleware",
      "FilesystemMiddleware",
      "SubAgentMiddleware",
      "PatchToolCallsMiddleware",
      "LimitsMiddleware",
      "SummarizationMiddleware",
      "SurfaceProbe",
      "ModelRetryMiddleware",
      "ProviderRequestMiddleware",
    ]);
  });

  it("the general-purpose subagent's stack is the parent's, in the same order, without task, memory, debug, profile middleware or probe", () => {
    compiled.length = 0;
    createDeepAgent(everything());
    const [gp, ...more] = stacksNamed("general-purpose");
    expect(more).toEqual([]);
    inOrder(gp!, fill);
    expect(gp).toEqual([
      "ToolErrorsMiddleware",
      "ApprovalMiddleware",
      "EvictionMiddleware",
      "FilesystemMiddleware",
      "AskUserMiddleware",
      "PatchToolCallsMiddleware",
      "SkillsMiddleware",
      "UserMiddleware",
      "ToolExclusionMiddleware",
      "ToolDeferralMiddleware",
      "LimitsMiddleware",
      "SummarizationMiddleware",
      "ModelRetryMiddleware",
      "ProviderRequestMiddleware",
    ]);
  });

  it("a declarative subagent's stack follows MIDDLEWARE_ORDER, with its own middleware in the caller's slot", () => {
    compiled.length = 0;
    createDeepAgent({
      ...everything(),
      maxSubagentDepth: 2,
      subagents: [
        {
          name: "researcher",
          description: "Researches.",
          systemPrompt: "You research.",
          middleware: [passThrough("ResearcherMiddleware")],
          interruptOn: { edit_file: true },
          subagents: [{ name: "deep", description: "Digs.", systemPrompt: "You dig." }],
        },
      ],
    });
    const [researcher] = stacksNamed("researcher");
    const [deep] = stacksNamed("deep");
    // Its own subagent inherits its middleware.
    const own = { ...fill, middleware: "ResearcherMiddleware" };
    inOrder(researcher!, own);
    inOrder(deep!, own);
    expect(deep).toContain("ResearcherMiddleware");
    expect(researcher).toContain("SubAgentMiddleware");
    expect(researcher).toContain("ApprovalMiddleware");
    expect(researcher).not.toContain("MemoryMiddleware");
  });

  it("every stack compiled for an agent follows MIDDLEWARE_ORDER", () => {
    compiled.length = 0;
    createDeepAgent({
      ...everything(),
      subagents: [
        { name: "writer", description: "Writes.", systemPrompt: "You write." },
        { name: "fork", description: "Continues.", mode: "fork" },
      ],
    });
    expect(stacksNamed("fork")).toHaveLength(1);
    expect(compiled.length).toBeGreaterThanOrEqual(4);
    for (const stack of compiled) inOrder(stack.middleware, fill);
  });
});
