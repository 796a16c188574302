import { tool } from "@langchain/core/tools";
import { ConfigurationError, createDeepAgent, filesystemMiddleware, inspectSurface } from "delve";
import { ScriptedChatModel } from "delve/testing";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { getTicketTool } from "../helpers/tickets.js";

const quiet = () => vi.spyOn(console, "warn").mockImplementation(() => {});

describe("the seed's surface experiments", () => {
  it("the default agent with get_ticket registers 10 tools and shows 9 (execute hidden)", async () => {
    const agent = createDeepAgent({ model: new ScriptedChatModel([]), tools: [getTicketTool()] });
    const report = await inspectSurface(agent);
    expect(report.registered).toHaveLength(10);
    expect(report.visible).toHaveLength(9);
    expect(report.visible).not.toContain("execute");
    expect(report.hidden).toEqual([
      { name: "execute", reason: "the backend cannot execute commands" },
    ]);
    expect(report.visible.sort()).toEqual([
      "delete",
      "edit_file",
      "get_ticket",
      "glob",
      "grep",
      "ls",
      "read_file",
      "task",
      "write_file",
    ]);
  });

  it("what the inspector reports is exactly what the model is bound with", async () => {
    const model = new ScriptedChatModel(["hi"]);
    const agent = createDeepAgent({ model, tools: [getTicketTool()] });
    const report = await inspectSurface(agent);
    expect(model.calls).toHaveLength(0); // inspection called no model
    await agent.invoke({ messages: [{ role: "user", content: "hello" }] });
    expect(model.calls[0]!.tools.sort()).toEqual([...report.visible].sort());
  });

  it('whitelist ["ls","read_file","grep"] registers and shows 5 tools', async () => {
    const agent = createDeepAgent({
      model: new ScriptedChatModel([]),
      tools: [getTicketTool()],
      middleware: [filesystemMiddleware({ tools: ["ls", "read_file", "grep"] })],
    });
    const report = await inspectSurface(agent);
    expect(report.registered.sort()).toEqual(["get_ticket", "grep", "ls", "read_file", "task"]);
    expect(report.visible.sort()).toEqual(["get_ticket", "grep", "ls", "read_file", "task"]);
    expect(report.hidden).toEqual([]);
  });

  it("a whitelist without read_file throws the seed's message", () => {
    expect(() => filesystemMiddleware({ tools: ["ls", "grep"] })).toThrow(
      "read_file must be included in tools; it is required by FilesystemMiddleware",
    );
  });

  it("a user read_file replaces the built-in: 8 visible, the user's function runs, and it warns", async () => {
    const warn = quiet();
    const userRead = vi.fn(async () => "from the user's read_file");
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "read_file", args: { file_path: "/x.md" } }] },
      "done",
    ]);
    const agent = createDeepAgent({
      model,
      tools: [
        tool(userRead, {
          name: "read_file",
          description: "Read from the CRM.",
          schema: z.object({ file_path: z.string() }),
        }),
      ],
    });
    const report = await inspectSurface(agent);
    expect(report.visible).toHaveLength(8);
    expect(report.visible.filter((n) => n === "read_file")).toHaveLength(1);
    expect(report.registered.filter((n) => n === "read_file")).toHaveLength(1);
    expect(report.tools.find((t) => t.name === "read_file")?.source).toBe("user");
    expect(report.warnings.join(" ")).toMatch(/replaces the built-in read_file/);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("read_file"));
    const out = await agent.invoke({ messages: [{ role: "user", content: "read" }] });
    expect(userRead).toHaveBeenCalledTimes(1);
    expect(out.messages.some((m: any) => m.content === "from the user's read_file")).toBe(true);
    warn.mockRestore();
  });

  it('onToolNameConflict: "error" refuses a shadowing tool; "ignore" allows it silently', async () => {
    const shadow = {
      name: "grep",
      description: "Search tickets.",
      schema: z.object({ q: z.string() }),
      func: async () => "x",
    };
    expect(() =>
      createDeepAgent({
        model: new ScriptedChatModel([]),
        tools: [shadow],
        onToolNameConflict: "error",
      }),
    ).toThrow(/replaces the built-in grep/);
    const warn = quiet();
    const agent = createDeepAgent({
      model: new ScriptedChatModel([]),
      tools: [shadow],
      onToolNameConflict: "ignore",
    });
    expect(warn.mock.calls).toEqual([]);
    expect((await inspectSurface(agent)).warnings).toEqual([]);
    warn.mockRestore();
  });

  it("tools is additive: one user tool adds one visible tool to the built-ins", async () => {
    const bare = await inspectSurface(createDeepAgent({ model: new ScriptedChatModel([]) }));
    const withOne = await inspectSurface(
      createDeepAgent({ model: new ScriptedChatModel([]), tools: [getTicketTool()] }),
    );
    expect(withOne.visible.length).toBe(bare.visible.length + 1);
  });

  it("chars per tool = name + description + JSON schema, and the totals add up", async () => {
    const report = await inspectSurface(
      createDeepAgent({ model: new ScriptedChatModel([]), tools: [getTicketTool()] }),
    );
    const ticket = report.tools.find((t) => t.name === "get_ticket")!;
    const t = getTicketTool();
    expect(ticket.chars).toBeGreaterThan(t.name.length + t.description.length);
    expect(report.totalChars).toBe(report.tools.reduce((s, x) => s + x.chars, 0));
    expect(report.totalTokens).toBeGreaterThan(report.totalChars / 8);
    expect(report.totalTokens).toBeLessThan(report.totalChars / 2);
    expect(report.systemPromptChars).toBe(0);
  });

  it("the default surface stays under 5,000 characters with get_ticket", async () => {
    const report = await inspectSurface(
      createDeepAgent({ model: new ScriptedChatModel([]), tools: [getTicketTool()] }),
    );
    expect(report.totalChars).toBeLessThanOrEqual(5000);
  });
});

describe("tools in three forms", () => {
  it("LangChain tools, plain definitions and provider dictionaries mix in one list", async () => {
    const webSearch = { type: "web_search" };
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "lookup_order", args: { order_id: "O-1" } }] },
      "done",
    ]);
    const agent = createDeepAgent({
      model,
      tools: [
        getTicketTool(),
        {
          name: "lookup_order",
          description: "Look up one order by id.",
          schema: {
            type: "object",
            properties: { order_id: { type: "string" } },
            required: ["order_id"],
          },
          func: async ({ order_id }: { order_id: string }) => `order ${order_id}: shipped`,
        },
        webSearch,
      ],
    });
    const report = await inspectSurface(agent);
    expect(report.tools.find((t) => t.name === "web_search")?.source).toBe("provider");
    expect(report.tools.find((t) => t.name === "lookup_order")?.source).toBe("user");
    const out = await agent.invoke({ messages: [{ role: "user", content: "order?" }] });
    expect(out.messages.some((m: any) => m.content === "order O-1: shipped")).toBe(true);
    // The provider dictionary reaches bindTools untouched (same object).
    expect(model.calls[0]!.boundTools).toContain(webSearch);
  });

  it("a malformed tool entry is a construction error naming its position", () => {
    const model = new ScriptedChatModel([]);
    const cases: Array<[unknown[], RegExp]> = [
      [[getTicketTool(), 42], /tools\[1\] is number/],
      [[{ name: "x", description: "d", schema: {} }], /tools\[0\] \("x"\) needs func/],
      [[{ name: "y", schema: {}, func: () => 1 }], /tools\[0\] \("y"\) needs a description/],
      [
        [{ name: "bad name!", description: "d", schema: {}, func: () => 1 }],
        /tools\[0\] needs a name/,
      ],
      [[null], /tools\[0\] is null/],
      [[{}], /tools\[0\] is an empty object/],
    ];
    for (const [tools, message] of cases) {
      let error: unknown;
      try {
        createDeepAgent({ model, tools: tools as any });
      } catch (e) {
        error = e;
      }
      expect(ConfigurationError.isInstance(error), String(message)).toBe(true);
      expect((error as Error).message).toMatch(message);
    }
  });

  it("two user tools with one name are refused", () => {
    expect(() =>
      createDeepAgent({
        model: new ScriptedChatModel([]),
        tools: [getTicketTool(), getTicketTool()],
      }),
    ).toThrow(/tools\[0\] and tools\[1\] are both named "get_ticket"/);
  });
});
