import { HumanMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import {
  ConfigurationError,
  createDeepAgent,
  inspectSurface,
  loadedTools,
  SEARCH_TOOLS_NAME,
  toolText,
} from "delve";
import { ScriptedChatModel } from "delve/testing";
import { describe, expect, it } from "vitest";
import { generatedTools } from "../helpers/many-tools.js";
import { getTicketTool } from "../helpers/tickets.js";

const BUILT_INS = ["ls", "read_file", "write_file", "edit_file", "delete", "glob", "grep", "task"];
const config = (thread: string) => ({ configurable: { thread_id: thread } });
const resultOf = (messages: any[], id: string) =>
  toolText(messages.find((m) => m.tool_call_id === id));

describe("deferred tools with a scripted model", () => {
  it('"auto" leaves a small agent as it was: no search_tools, every tool inline', async () => {
    const agent = createDeepAgent({ model: new ScriptedChatModel([]), tools: [getTicketTool()] });
    const report = await inspectSurface(agent);
    expect(report.visible.sort()).toEqual([...BUILT_INS, "get_ticket"].sort());
    expect(report.registered).not.toContain(SEARCH_TOOLS_NAME);
    expect(report.deferred).toBeUndefined();
  });

  it('"auto" defers 170 tools, which would take more than 5% of the window', async () => {
    const agent = createDeepAgent({ model: new ScriptedChatModel([]), tools: generatedTools(170) });
    const report = await inspectSurface(agent);
    expect(report.visible.sort()).toEqual([...BUILT_INS, SEARCH_TOOLS_NAME].sort());
    expect(report.registered).toHaveLength(9 + 1 + 170);
    expect(report.deferred!.tools).toHaveLength(170);
    expect(report.hidden.map((h) => h.name)).toEqual(["execute"]);
    expect(report.totalTokens).toBeLessThan(report.deferred!.withoutDeferral.totalTokens / 5);
    const search = report.tools.find((t) => t.name === SEARCH_TOOLS_NAME)!;
    expect(search.definition.description).toContain("- crm_get_account: Fetch one account by id");
  });

  it("search loads the best matches, callable from the next model call on", async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: SEARCH_TOOLS_NAME, args: { query: "create a refund" }, id: "s1" }] },
      {
        toolCalls: [{ name: "billing_create_refund", args: { fields: { title: "R" } }, id: "c1" }],
      },
      "done",
    ]);
    const agent = createDeepAgent({ model, tools: generatedTools(170) });
    const out = await agent.invoke({ messages: [new HumanMessage("refund")] });
    expect(model.calls[0]!.tools).not.toContain("billing_create_refund");
    expect(model.calls[1]!.tools).toContain("billing_create_refund");
    expect(model.calls[1]!.tools.length).toBeLessThan(20);
    const found = resultOf(out.messages, "s1");
    expect(found.split("\n")[0]).toMatch(/^Loaded \d tools, callable from your next turn on:$/);
    expect(JSON.parse(found.split("\n")[1]!).name).toBe("billing_create_refund");
    expect(resultOf(out.messages, "c1")).toBe('billing_create_refund ok {"fields":{"title":"R"}}');
    expect(loadedTools(out)).toHaveLength(5);
    expect(loadedTools(out)[0]).toBe("billing_create_refund");
  });

  it("an exact name loads that tool; several names load them all", async () => {
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          { name: SEARCH_TOOLS_NAME, args: { query: "hr_get_team crm_list_deal" }, id: "s1" },
        ],
      },
      "done",
    ]);
    const agent = createDeepAgent({ model, tools: generatedTools(60), deferTools: true });
    const out = await agent.invoke({ messages: [new HumanMessage("go")] });
    expect(loadedTools(out)).toEqual(["hr_get_team", "crm_list_deal"]);
    expect(model.calls[1]!.tools).toEqual(expect.arrayContaining(["hr_get_team", "crm_list_deal"]));
  });

  it("a search that finds nothing says so and loads nothing", async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: SEARCH_TOOLS_NAME, args: { query: "zzz qqq" }, id: "s1" }] },
      "done",
    ]);
    const agent = createDeepAgent({ model, tools: generatedTools(10), deferTools: true });
    const out = await agent.invoke({ messages: [new HumanMessage("go")] });
    expect(resultOf(out.messages, "s1")).toMatch(/^No tool matches "zzz qqq"/);
    expect(loadedTools(out)).toEqual([]);
  });

  it("a call to a deferred tool before loading runs it and loads it when its arguments are valid", async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "crm_get_account", args: { id: "CRM-1" }, id: "c1" }] },
      "done",
    ]);
    const agent = createDeepAgent({ model, tools: generatedTools(20), deferTools: true });
    const out = await agent.invoke({ messages: [new HumanMessage("go")] });
    expect(resultOf(out.messages, "c1")).toBe('crm_get_account ok {"id":"CRM-1"}');
    expect(model.calls[1]!.tools).toContain("crm_get_account");
  });

  it("a call before loading with bad arguments gets the definition and what to fix, never unknown tool", async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "crm_get_account", args: { account: 7 }, id: "c1" }] },
      { toolCalls: [{ name: "crm_get_account", args: { id: "CRM-1" }, id: "c2" }] },
      "done",
    ]);
    const agent = createDeepAgent({ model, tools: generatedTools(20), deferTools: true });
    const out = await agent.invoke({ messages: [new HumanMessage("go")] });
    const text = resultOf(out.messages, "c1");
    expect(text).toMatch(
      /^Error: crm_get_account was not loaded yet, and these arguments do not fit it: .*"id".*required/,
    );
    expect(text).toContain('{"name":"crm_get_account","description":"Fetch one account');
    expect(text).not.toMatch(/unknown tool/i);
    expect(model.calls[1]!.tools).toContain("crm_get_account");
    expect(resultOf(out.messages, "c2")).toBe('crm_get_account ok {"id":"CRM-1"}');
  });

  it("after a restart (new agent, same checkpointer) the loaded set is kept", async () => {
    const saver = new MemorySaver();
    const first = new ScriptedChatModel([
      { toolCalls: [{ name: SEARCH_TOOLS_NAME, args: { query: "hr_get_payslip" }, id: "s1" }] },
      "loaded",
    ]);
    const tools = generatedTools(40);
    await createDeepAgent({ model: first, tools, deferTools: true, checkpointer: saver }).invoke(
      { messages: [new HumanMessage("load")] },
      config("t-restart"),
    );
    const second = new ScriptedChatModel(["again"]);
    const again = createDeepAgent({ model: second, tools, deferTools: true, checkpointer: saver });
    await again.invoke({ messages: [new HumanMessage("and now")] }, config("t-restart"));
    expect(second.calls[0]!.tools).toContain("hr_get_payslip");
    expect(second.calls[0]!.tools).not.toContain("hr_get_team");
  });

  it("a list or a predicate defers exactly the tools it names", async () => {
    const listed = createDeepAgent({
      model: new ScriptedChatModel([]),
      tools: [getTicketTool(), ...generatedTools(3)],
      deferTools: ["crm_get_account"],
    });
    const report = await inspectSurface(listed);
    expect(report.deferred!.tools.map((t) => t.name)).toEqual(["crm_get_account"]);
    expect(report.visible).toContain("billing_get_invoice");
    const byPredicate = createDeepAgent({
      model: new ScriptedChatModel([]),
      tools: [getTicketTool(), ...generatedTools(3)],
      deferTools: (name) => name.startsWith("tickets_"),
    });
    expect((await inspectSurface(byPredicate)).deferred!.tools.map((t) => t.name)).toEqual([
      "tickets_get_ticket",
    ]);
  });

  it("deferTools naming a built-in or an unknown tool fails at construction", () => {
    const build = (deferTools: any) => () =>
      createDeepAgent({ model: new ScriptedChatModel([]), tools: [getTicketTool()], deferTools });
    expect(build(["read_file"])).toThrow(ConfigurationError);
    expect(build(["read_file"])).toThrow(/built-in tools are never deferred/);
    expect(build(["nope"])).toThrow(/deferTools names "nope"/);
    expect(build("sometimes")).toThrow(/deferTools must be "auto", true, false/);
  });

  it("the surface shows deferred tools apart, with the index size and the cost without deferral", async () => {
    const tools = generatedTools(30);
    const deferred = await inspectSurface(
      createDeepAgent({ model: new ScriptedChatModel([]), tools, deferTools: true }),
    );
    const inline = await inspectSurface(
      createDeepAgent({ model: new ScriptedChatModel([]), tools, deferTools: false }),
    );
    expect(deferred.deferred!.withoutDeferral).toEqual({
      totalChars: inline.totalChars,
      totalTokens: inline.totalTokens,
    });
    const search = deferred.tools.find((t) => t.name === SEARCH_TOOLS_NAME)!;
    expect(deferred.deferred!.indexChars).toBeLessThan(search.chars);
    expect(search.definition.description).toContain("Tools you can load (30):\n- crm_get_account");
    expect(deferred.deferred!.tools.map((t) => t.chars)).toEqual(
      inline.tools.filter((t) => t.source === "user").map((t) => t.chars),
    );
  });

  it("a subagent starts with its parent's loaded tools, and what it loads stays its own", async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: SEARCH_TOOLS_NAME, args: { query: "hr_get_team" }, id: "p1" }] },
      {
        toolCalls: [
          { name: "task", args: { description: "look", subagent_type: "general-purpose" } },
        ],
      },
      { toolCalls: [{ name: SEARCH_TOOLS_NAME, args: { query: "crm_get_deal" }, id: "s1" }] },
      "sub done",
      "parent done",
    ]);
    const agent = createDeepAgent({ model, tools: generatedTools(40), deferTools: true });
    const out = await agent.invoke({ messages: [new HumanMessage("go")] });
    const [, , subFirst, subSecond, parentLast] = model.calls;
    expect(subFirst!.tools).toContain("hr_get_team");
    expect(subFirst!.tools).not.toContain("crm_get_deal");
    expect(subSecond!.tools).toEqual(expect.arrayContaining(["hr_get_team", "crm_get_deal"]));
    expect(parentLast!.tools).not.toContain("crm_get_deal");
    expect(loadedTools(out)).toEqual(["hr_get_team"]);
  });

  it("a compiled subagent without deferral runs when the parent has loaded tools", async () => {
    const inner = createDeepAgent({ model: new ScriptedChatModel(["inner answer"]) });
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: SEARCH_TOOLS_NAME, args: { query: "hr_get_team" }, id: "p1" }] },
      {
        toolCalls: [{ name: "task", args: { description: "x", subagent_type: "inner" }, id: "t1" }],
      },
      "done",
    ]);
    const agent = createDeepAgent({
      model,
      tools: generatedTools(10),
      deferTools: true,
      subagents: [{ name: "inner", description: "Inner.", runnable: inner }],
    });
    const out = await agent.invoke({ messages: [new HumanMessage("go")] });
    expect(resultOf(out.messages, "t1")).toBe("inner answer");
  });

  it("a declarative subagent with tools of its own defers them by the inherited option", async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "task", args: { description: "x", subagent_type: "ops" } }] },
      "sub done",
      "done",
    ]);
    const agent = createDeepAgent({
      model,
      tools: [getTicketTool()],
      deferTools: ["get_ticket"],
      subagents: [
        {
          name: "ops",
          description: "Ops.",
          systemPrompt: "Do ops.",
          tools: [getTicketTool(), ...generatedTools(3)],
        },
      ],
    });
    await agent.invoke({ messages: [new HumanMessage("go")] });
    expect(model.calls[1]!.tools).toContain(SEARCH_TOOLS_NAME);
    expect(model.calls[1]!.tools).not.toContain("get_ticket");
    expect(model.calls[1]!.tools).toContain("crm_get_account");
  });
});
