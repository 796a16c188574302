import { ToolMessage } from "@langchain/core/messages";
import {
  createDeepAgent,
  filesystemMiddleware,
  getHarnessProfile,
  inspectSurface,
  registerHarnessProfile,
  resetHarnessProfiles,
  unregisterHarnessProfile,
} from "delve";
import { ScriptedChatModel } from "delve/testing";
import { createMiddleware, todoListMiddleware } from "langchain";
import { afterEach, describe, expect, it } from "vitest";
import { getTicketTool } from "../helpers/tickets.js";

afterEach(() => resetHarnessProfiles());

const DEEPSEEK = "deepseek:deepseek-v4-flash";
const WRITERS = ["write_file", "edit_file", "delete"];

/** A scripted model whose class LangChain would call ChatAnthropic. */
class ChatAnthropic extends ScriptedChatModel {
  model = "claude-sonnet-4-6";
}

describe("harness profiles: the seed's experiments", () => {
  it("§6.3: a provider profile excluding write_file, edit_file, delete: 10 registered, 6 visible", async () => {
    registerHarnessProfile("deepseek", { excludedTools: WRITERS });
    const report = await inspectSurface(
      createDeepAgent({ model: DEEPSEEK, tools: [getTicketTool()] }),
    );
    expect(report.registered).toHaveLength(10);
    expect(report.visible.sort()).toEqual([
      "get_ticket",
      "glob",
      "grep",
      "ls",
      "read_file",
      "task",
    ]);
    expect(report.hidden).toContainEqual({
      name: "delete",
      reason: 'excluded by harness profile "deepseek"',
    });
    expect(report.profilesApplied).toEqual(["deepseek"]);
  });

  it("§6.5: generalPurposeSubagent disabled with no subagents removes task: 10 -> 9 registered", async () => {
    registerHarnessProfile(DEEPSEEK, { generalPurposeSubagent: { enabled: false } });
    const agent = createDeepAgent({ model: DEEPSEEK, tools: [getTicketTool()] });
    const report = await inspectSurface(agent);
    expect(report.registered).toHaveLength(9);
    expect(report.registered).not.toContain("task");
    const names = (agent as any).options?.middleware?.map((m: any) => m.name) ?? [];
    expect(names).not.toContain("SubAgentMiddleware");
  });

  it("§6.6: both, with whitelist [ls, read_file, grep]: the model sees 4 tools", async () => {
    registerHarnessProfile(DEEPSEEK, { generalPurposeSubagent: { enabled: false } });
    const report = await inspectSurface(
      createDeepAgent({
        model: DEEPSEEK,
        tools: [getTicketTool()],
        middleware: [filesystemMiddleware({ tools: ["ls", "read_file", "grep"] })],
      }),
    );
    expect(report.visible.sort()).toEqual(["get_ticket", "grep", "ls", "read_file"]);
  });
});

describe("an excluded tool leaves no trace in the model's request", () => {
  it("not in the prompt, another tool's description, an error or a truncation notice", async () => {
    const excluded = ["glob", "edit_file", "execute"];
    registerHarnessProfile("anthropic", {
      excludedTools: excluded,
      systemPromptSuffix: "Work carefully.",
    });
    const model = new ChatAnthropic([
      {
        toolCalls: [
          { name: "edit_file", args: { file_path: "/a.md", old_string: "a", new_string: "b" } },
          { name: "no_such_tool", args: {} },
          { name: "read_file", args: { file_path: "/missing.md" } },
          { name: "grep", args: { pattern: "x" } },
        ],
      },
      "done",
    ]);
    const agent = createDeepAgent({ model, tools: [getTicketTool()] });
    const files = Object.fromEntries(
      Array.from({ length: 1100 }, (_, i) => [`/f/${i}.txt`, "x\n"]),
    );
    const out = await agent.invoke({ messages: [{ role: "user", content: "go" }], files });
    const results = out.messages.filter((m: unknown) => ToolMessage.isInstance(m)) as ToolMessage[];
    expect(results[0]!.status).toBe("error"); // the excluded call was refused
    expect(String(results[3]!.content)).toMatch(/Stopped at 1000 matches/);
    // Serialise everything the model was handed on its second call.
    const request = JSON.stringify({
      messages: model.calls[1]!.messages.map((m) => ({ content: m.content })),
      tools: model.calls[1]!.boundTools.map((t: any) => ({ d: t.description, s: t.schema })),
    });
    // grep's own `glob` parameter is protocol, not the glob tool: take it out before searching.
    const withoutGrepParam = request
      .replace(/"glob":\{"type":"string"\}/g, "")
      .replace("and glob (a file-name filter, e.g. *.md)", "");
    for (const name of excluded) {
      const mentions = withoutGrepParam.split(new RegExp(`\\b${name}\\b`)).length - 1;
      expect(mentions, `${name} in ${withoutGrepParam}`).toBe(0);
    }
    expect(model.calls[1]!.tools).not.toContain("glob");
  });

  it("the unknown-tool message lists only visible tools", async () => {
    registerHarnessProfile("*", { excludedTools: ["delete"] });
    const model = new ScriptedChatModel([{ toolCalls: [{ name: "nope", args: {} }] }, "ok"]);
    const out = await createDeepAgent({ model }).invoke({
      messages: [{ role: "user", content: "x" }],
    });
    const result = out.messages.find((m: unknown) => ToolMessage.isInstance(m)) as ToolMessage;
    expect(result.content).toMatch(/Available tools: /);
    expect(result.content).not.toMatch(/\bdelete\b/);
  });
});

describe("the registry", () => {
  it('re-registering merges (exclusions by union); "*" applies to every model', async () => {
    registerHarnessProfile("deepseek", { excludedTools: ["delete"] });
    registerHarnessProfile("deepseek", { excludedTools: ["write_file"], systemPromptSuffix: "S" });
    expect(getHarnessProfile("deepseek")).toMatchObject({
      excludedTools: ["delete", "write_file"],
      systemPromptSuffix: "S",
    });
    registerHarnessProfile("*", { baseSystemPrompt: "Everyone." });
    const report = await inspectSurface(createDeepAgent({ model: new ScriptedChatModel([]) }));
    expect(report.systemPrompt).toBe("Everyone.");
  });

  it("model-exact merges over provider, which merges over *", async () => {
    registerHarnessProfile("*", { systemPromptSuffix: "star", excludedTools: ["glob"] });
    registerHarnessProfile("deepseek", { systemPromptSuffix: "provider", excludedTools: ["grep"] });
    registerHarnessProfile(DEEPSEEK, { systemPromptSuffix: "exact" });
    const report = await inspectSurface(
      createDeepAgent({ model: DEEPSEEK, systemPrompt: "User." }),
    );
    expect(report.systemPrompt).toBe("User.\n\nexact");
    expect(report.visible).not.toContain("glob");
    expect(report.visible).not.toContain("grep");
    expect(report.profilesApplied).toEqual(["*", "deepseek", DEEPSEEK]);
  });

  it("unregister and reset remove profiles", async () => {
    registerHarnessProfile("deepseek", { excludedTools: ["delete"] });
    expect(unregisterHarnessProfile("deepseek")).toBe(true);
    expect(getHarnessProfile("deepseek")).toBeUndefined();
    registerHarnessProfile("deepseek", { excludedTools: ["delete"] });
    resetHarnessProfiles();
    const report = await inspectSurface(createDeepAgent({ model: DEEPSEEK }));
    expect(report.visible).toContain("delete");
  });

  it("a per-agent profile applies last and leaves the registry unchanged", async () => {
    registerHarnessProfile("deepseek", { systemPromptSuffix: "registered" });
    const report = await inspectSurface(
      createDeepAgent({
        model: DEEPSEEK,
        profile: { systemPromptSuffix: "mine", excludedTools: ["ls"] },
      }),
    );
    expect(report.systemPrompt).toBe("mine");
    expect(report.hidden).toContainEqual({
      name: "ls",
      reason: 'excluded by harness profile "agent"',
    });
    expect(getHarnessProfile("deepseek")).toEqual({ systemPromptSuffix: "registered" });
  });

  it("the key comes from profileKey, the model string, or the model class; the inspector says which", async () => {
    registerHarnessProfile("anthropic", { systemPromptSuffix: "claude" });
    const byClass = await inspectSurface(createDeepAgent({ model: new ChatAnthropic([]) }));
    expect(byClass.modelKey).toBe("anthropic:claude-sonnet-4-6");
    expect(byClass.modelKeySource).toBe("model class");
    expect(byClass.systemPrompt).toBe("claude");
    const byOption = await inspectSurface(
      createDeepAgent({ model: new ScriptedChatModel([]), profileKey: "anthropic:x" }),
    );
    expect(byOption.modelKeySource).toBe("profileKey option");
    expect(byOption.systemPrompt).toBe("claude");
    const byString = await inspectSurface(createDeepAgent({ model: DEEPSEEK }));
    expect(byString.modelKeySource).toBe("model string");
  });
});

describe("profile fields", () => {
  it("toolDescriptionOverrides rewrite built-in, task and user tool descriptions", async () => {
    const model = new ScriptedChatModel(["ok"]);
    const agent = createDeepAgent({
      model,
      tools: [getTicketTool()],
      profile: {
        toolDescriptionOverrides: {
          read_file: "Read a file.",
          task: "Delegate.",
          get_ticket: "Fetch a ticket.",
        },
      },
    });
    await agent.invoke({ messages: [{ role: "user", content: "x" }] });
    const described = Object.fromEntries(
      model.calls[0]!.boundTools.map((t: any) => [t.name, t.description]),
    );
    expect(described.read_file).toBe("Read a file.");
    expect(described.task).toBe("Delegate.");
    expect(described.get_ticket).toBe("Fetch a ticket.");
  });

  it("extraMiddleware adds LangChain's todo list (write_todos) to one model family", async () => {
    registerHarnessProfile("openai", { extraMiddleware: [todoListMiddleware()] });
    const report = await inspectSurface(createDeepAgent({ model: "openai:gpt-5.5" }));
    expect(report.visible).toContain("write_todos");
    const other = await inspectSurface(createDeepAgent({ model: DEEPSEEK }));
    expect(other.visible).not.toContain("write_todos");
  });

  it("excludedMiddleware removes by name; the skeleton cannot be removed", async () => {
    const audit = createMiddleware({ name: "AuditMiddleware" });
    const agent = createDeepAgent({
      model: new ScriptedChatModel([]),
      middleware: [audit],
      profile: { excludedMiddleware: ["AuditMiddleware"] },
    });
    expect((await inspectSurface(agent)).visible).toContain("read_file");
    expect(() =>
      createDeepAgent({
        model: new ScriptedChatModel([]),
        profile: { excludedMiddleware: ["FilesystemMiddleware"] },
      }),
    ).toThrow(/cannot remove FilesystemMiddleware/);
    expect(() =>
      registerHarnessProfile("x", { excludedMiddleware: ["SubAgentMiddleware"] }),
    ).toThrow(/cannot remove SubAgentMiddleware/);
  });

  it("an excludedMiddleware entry matching nothing: an error per agent, ignored when registered", () => {
    expect(() =>
      createDeepAgent({
        model: new ScriptedChatModel([]),
        profile: { excludedMiddleware: ["Nope"] },
      }),
    ).toThrow(/excludes middleware "Nope"/);
    registerHarnessProfile("*", { excludedMiddleware: ["Nope"] });
    expect(() => createDeepAgent({ model: new ScriptedChatModel([]) })).not.toThrow();
  });

  it("a malformed profile fails at construction", () => {
    expect(() => registerHarnessProfile("deepseek", { excludedTool: ["x"] } as any)).toThrow(
      /unknown field "excludedTool"/,
    );
    expect(() => registerHarnessProfile("bad key with spaces", {})).toThrow(/must be "\*"/);
  });
});
