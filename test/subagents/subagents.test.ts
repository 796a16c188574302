import { ToolMessage } from "@langchain/core/messages";
import { createDeepAgent, inspectSurface } from "delve";
import { ScriptedChatModel } from "delve/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const user = (content: string) => ({ messages: [{ role: "user" as const, content }] });
const results = (out: { messages: any[] }) =>
  out.messages.filter((m) => ToolMessage.isInstance(m)) as ToolMessage[];
const task = (subagent_type: string, description: string, id?: string) => ({
  name: "task",
  args: { description, subagent_type },
  ...(id ? { id } : {}),
});

describe("custom subagents and task", () => {
  it("task is attached with the general-purpose subagent by default, and lists custom ones", async () => {
    const agent = createDeepAgent({
      model: new ScriptedChatModel([]),
      subagents: [
        { name: "researcher", description: "Finds facts in /kb.", systemPrompt: "Research." },
      ],
    });
    const report = await inspectSurface(agent);
    expect(report.visible).toContain("task");
    const model = new ScriptedChatModel(["hi"]);
    const probe = createDeepAgent({
      model,
      subagents: [{ name: "researcher", description: "Finds facts in /kb.", systemPrompt: "R" }],
    });
    await probe.invoke(user("x"));
    const taskTool: any = (probe as any).graph.nodes.tools.bound.tools.find(
      (t: any) => t.name === "task",
    );
    expect(taskTool.description).toMatch(/- general-purpose: /);
    expect(taskTool.description).toMatch(/- researcher: Finds facts in \/kb\./);
  });

  it("an unknown subagent name is an error result listing the available ones", async () => {
    const model = new ScriptedChatModel([{ toolCalls: [task("writer", "write")] }, "ok"]);
    const out = await createDeepAgent({ model }).invoke(user("x"));
    const [result] = results(out);
    expect(result!.status).toBe("error");
    expect(result!.content).toMatch(/"subagent_type" must be one of: general-purpose/);
  });

  it("a custom subagent runs with its own prompt and tools, from the parent's files", async () => {
    const shared = new ScriptedChatModel([
      { toolCalls: [task("researcher", "What does the FAQ say about warranty?")] },
      // researcher's turns:
      (messages) => {
        expect(messages[0]!.text).toBe("You research the knowledge base.");
        expect(messages).toHaveLength(2); // its prompt + the task: none of the parent's messages
        return { toolCalls: [{ name: "read_file", args: { file_path: "/kb/faq.md" } }] };
      },
      (messages) => `FAQ: ${String(messages.at(-1)!.content).replace(/^1 {2}/, "")}`,
      "The warranty is 12 months.",
    ]);
    const agent = createDeepAgent({
      model: shared,
      subagents: [
        {
          name: "researcher",
          description: "Answers questions from /kb.",
          systemPrompt: "You research the knowledge base.",
          tools: [],
        },
      ],
    });
    const out = await agent.invoke({
      ...user("warranty?"),
      files: { "/kb/faq.md": "Warranty: 12 months" },
    });
    expect(results(out)[0]!.content).toBe("FAQ: Warranty: 12 months");
    expect(shared.calls[1]!.tools).not.toContain("task"); // no task without its own subagents
  });

  it("a subagent's changes and deletions come back to the parent", async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [task("general-purpose", "tidy up")] },
      {
        toolCalls: [
          { name: "write_file", args: { file_path: "/new.md", content: "made by the subagent" } },
          { name: "delete", args: { file_path: "/old.md" } },
          {
            name: "edit_file",
            args: { file_path: "/keep.md", old_string: "v1", new_string: "v2" },
          },
        ],
      },
      "tidied",
      "done",
    ]);
    const out = await createDeepAgent({ model }).invoke({
      ...user("tidy"),
      files: { "/old.md": "stale", "/keep.md": "v1" },
    });
    expect(out.files["/new.md"].content).toBe("made by the subagent");
    expect(out.files["/old.md"]).toBeUndefined();
    expect(out.files["/keep.md"].content).toBe("v2");
  });

  it("parallel tasks touching different files lose nothing", async () => {
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          task("general-purpose", "write a", "t1"),
          task("general-purpose", "write b", "t2"),
        ],
      },
      (messages) => {
        const which = String(messages.at(-1)!.content).includes("write a") ? "a" : "b";
        return {
          toolCalls: [{ name: "write_file", args: { file_path: `/${which}.md`, content: which } }],
        };
      },
      (messages) => {
        const which = String(messages.at(-1)!.content).includes("write a") ? "a" : "b";
        return {
          toolCalls: [{ name: "write_file", args: { file_path: `/${which}.md`, content: which } }],
        };
      },
      "sub done",
      "sub done",
      "all done",
    ]);
    const out = await createDeepAgent({ model }).invoke(user("two"));
    expect(out.files["/a.md"].content).toBe("a");
    expect(out.files["/b.md"].content).toBe("b");
  });

  it("two parallel tasks changing one file: both kept in history, a conflict notice reaches the parent's next call", async () => {
    const writer = (text: string) => () => ({
      toolCalls: [{ name: "write_file", args: { file_path: "/plan.md", content: text } }],
    });
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          task("general-purpose", "plan A", "ta"),
          task("general-purpose", "plan B", "tb"),
        ],
      },
      writer("plan from one"),
      writer("plan from two"),
      "wrote a plan",
      "wrote a plan",
      "merged",
    ]);
    const agent = createDeepAgent({ model });
    const out = await agent.invoke({ ...user("plan"), files: { "/plan.md": "draft" } });
    expect(results(out).filter((m) => m.name === "task")).toHaveLength(2);
    expect(["plan from one", "plan from two"]).toContain(out.files["/plan.md"].content);
    const lastCall = model.calls.at(-1)!;
    const system = String(lastCall.messages[0]!.content);
    expect(system).toMatch(
      /\/plan\.md was changed in parallel by subagents "general-purpose" \(call ta\) and "general-purpose" \(call tb\)/,
    );
  });

  it("a failing subagent returns an error result and does not cancel its sibling", async () => {
    const boom = {
      name: "broken",
      description: "Always fails.",
      runnable: {
        invoke: async () => {
          throw new Error("CRM unreachable");
        },
      },
    };
    const model = new ScriptedChatModel([
      { toolCalls: [task("broken", "go"), task("general-purpose", "write ok")] },
      { toolCalls: [{ name: "write_file", args: { file_path: "/ok.md", content: "fine" } }] },
      "wrote",
      "done",
    ]);
    const out = await createDeepAgent({ model, subagents: [boom] }).invoke(user("x"));
    const taskResults = results(out).filter((m) => m.name === "task");
    expect(taskResults.find((m) => m.status === "error")!.content).toMatch(
      /subagent "broken" failed: CRM unreachable/,
    );
    expect(taskResults.find((m) => m.status !== "error")!.content).toBe("wrote");
    expect(out.files["/ok.md"].content).toBe("fine");
  });

  it("a compiled subagent is invoked with the task and the parent's files", async () => {
    let received: any;
    const compiled = {
      name: "reviewer",
      description: "Reviews briefs.",
      runnable: {
        invoke: async (input: any) => {
          received = input;
          return {
            messages: [
              { type: "ai", content: "" },
              new (await import("@langchain/core/messages")).AIMessage("Looks good."),
            ],
          };
        },
      },
    };
    const model = new ScriptedChatModel([
      { toolCalls: [task("reviewer", "review /brief.md")] },
      "ok",
    ]);
    const out = await createDeepAgent({ model, subagents: [compiled] }).invoke({
      ...user("review"),
      files: { "/brief.md": "# Brief" },
    });
    expect(received.messages[0].content).toBe("review /brief.md");
    expect(received.files["/brief.md"].content).toBe("# Brief");
    expect(results(out)[0]!.content).toBe("Looks good.");
  });

  it("a subagent with responseFormat returns its structured response as JSON", async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [task("classifier", "classify T-1001")] },
      // The structured-output tool LangChain binds for the schema (its name is LangChain's).
      (_messages, call) => ({
        toolCalls: [
          {
            name: call.tools.find((t) => t.startsWith("extract"))!,
            args: { category: "logistics", urgent: true },
          },
        ],
      }),
      "ok",
    ]);
    const agent = createDeepAgent({
      model,
      subagents: [
        {
          name: "classifier",
          description: "Classifies a ticket.",
          systemPrompt: "Classify.",
          responseFormat: z
            .object({ category: z.string(), urgent: z.boolean() })
            .describe("extract"),
        },
      ],
    });
    const out = await agent.invoke(user("classify"));
    const taskResult = results(out).find((m) => m.name === "task")!;
    expect(JSON.parse(String(taskResult.content))).toEqual({ category: "logistics", urgent: true });
  });

  it("streaming the parent shows the subagent's progress under a subgraph namespace", async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [task("general-purpose", "write x")] },
      { toolCalls: [{ name: "write_file", args: { file_path: "/x.md", content: "x" } }] },
      "sub done",
      "done",
    ]);
    const agent = createDeepAgent({ model });
    const namespaces: string[] = [];
    for await (const chunk of await agent.stream(user("go"), {
      streamMode: "updates",
      subgraphs: true,
    } as any)) {
      const [ns] = chunk as unknown as [string[], unknown];
      if (ns.length) namespaces.push(ns.join("|"));
    }
    expect(namespaces.some((ns) => ns.startsWith("tools:"))).toBe(true);
  });

  it("nesting: a subagent has task only when it lists subagents, within maxSubagentDepth", () => {
    const nested = {
      name: "lead",
      description: "Leads.",
      systemPrompt: "Lead.",
      subagents: [{ name: "helper", description: "Helps.", systemPrompt: "Help." }],
    };
    expect(() =>
      createDeepAgent({ model: new ScriptedChatModel([]), subagents: [nested] }),
    ).toThrow(/maxSubagentDepth is 1/);
    expect(() =>
      createDeepAgent({
        model: new ScriptedChatModel([]),
        subagents: [nested],
        maxSubagentDepth: 2,
      }),
    ).not.toThrow();
  });

  it("malformed subagent specs fail at construction naming them", () => {
    const model = new ScriptedChatModel([]);
    expect(() =>
      createDeepAgent({ model, subagents: [{ name: "x", description: "" } as any] }),
    ).toThrow(/subagents\[0\] \("x"\) needs a description/);
    expect(() =>
      createDeepAgent({
        model,
        subagents: [
          { name: "a", description: "A", systemPrompt: "A" },
          { name: "a", description: "B", systemPrompt: "B" },
        ],
      }),
    ).toThrow(/repeats the name "a"/);
  });

  it("a subagent with its own permissions replaces the parent's rules", async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [task("auditor", "read secrets")] },
      { toolCalls: [{ name: "read_file", args: { file_path: "/secrets/a.txt" } }] },
      (m) => `auditor saw: ${String(m.at(-1)!.content)}`,
      { toolCalls: [{ name: "read_file", args: { file_path: "/secrets/a.txt" } }] },
      "done",
    ]);
    const agent = createDeepAgent({
      model,
      permissions: [{ operations: ["read"], paths: ["/secrets/**"], mode: "deny" }],
      subagents: [
        { name: "auditor", description: "Audits.", systemPrompt: "Audit.", permissions: [] },
      ],
    });
    const out = await agent.invoke({ ...user("x"), files: { "/secrets/a.txt": "s3cret" } });
    const all = results(out);
    expect(all[0]!.content).toBe("auditor saw: 1  s3cret");
    expect(all[1]!.status).toBe("error"); // the parent is still denied
  });
});
