import { Command, MemorySaver } from "@langchain/langgraph";
import { createDeepAgent } from "delve";
import { ScriptedChatModel } from "delve/testing";
import { describe, expect, it } from "vitest";
import { orderTools, requestOf, resultFor, resume, thread, user } from "./helpers.js";

const delegate = (subagent_type: string) => ({
  toolCalls: [{ name: "task", args: { description: "Delete ORD-1.", subagent_type }, id: "t1" }],
});
const parentModel = () =>
  new ScriptedChatModel([delegate("clerk"), (messages) => `Parent: ${messages.at(-1)!.text}`]);

describe("approval inside subagents", () => {
  it("#725: the subagent's approval is kept when its model takes another step after the resume", async () => {
    const { tools, ran } = orderTools();
    const child = new ScriptedChatModel([
      { toolCalls: [{ name: "delete_order", args: { order_id: "ORD-1" }, id: "s1" }] },
      { toolCalls: [{ name: "get_order", args: { order_id: "ORD-1" }, id: "s2" }] },
      "ORD-1 deleted and verified.",
    ]);
    const agent = createDeepAgent({
      model: parentModel(),
      tools,
      subagents: [
        {
          name: "clerk",
          description: "Handles orders.",
          systemPrompt: "Handle orders.",
          model: child,
          interruptOn: { delete_order: true },
        },
      ],
      checkpointer: new MemorySaver(),
    });
    const paused = await agent.invoke(user("delete ORD-1"), thread("725"));
    expect(requestOf(paused)!.actionRequests).toEqual([
      {
        name: "delete_order",
        args: { order_id: "ORD-1" },
        description: "delete_order needs approval before it runs.",
      },
    ]);
    expect(ran).toEqual([]);
    const out = await agent.invoke(resume([{ type: "approve" }]), thread("725"));
    expect(requestOf(out)).toBeUndefined();
    expect(ran.map((r) => r.tool)).toEqual(["delete_order", "get_order"]);
    expect(child.used).toBe(3);
    expect(out.messages.at(-1)!.content).toBe("Parent: ORD-1 deleted and verified.");
  });

  it("a second gated call in the same subagent run pauses again and each call runs once", async () => {
    const { tools, ran } = orderTools();
    const child = new ScriptedChatModel([
      { toolCalls: [{ name: "delete_order", args: { order_id: "ORD-1" }, id: "s1" }] },
      { toolCalls: [{ name: "refund_order", args: { order_id: "ORD-1", amount: 20 }, id: "s2" }] },
      (messages) => `Refund: ${messages.at(-1)!.text}`,
    ]);
    const agent = createDeepAgent({
      model: parentModel(),
      tools,
      subagents: [
        {
          name: "clerk",
          description: "Handles orders.",
          systemPrompt: "Handle orders.",
          model: child,
        },
      ],
      interruptOn: { delete_order: true, refund_order: true },
      checkpointer: new MemorySaver(),
    });
    await agent.invoke(user("delete and refund"), thread("twice"));
    const second = await agent.invoke(resume([{ type: "approve" }]), thread("twice"));
    expect(requestOf(second)!.actionRequests[0]!.name).toBe("refund_order");
    const out = await agent.invoke(
      resume([{ type: "reject", message: "No refund." }]),
      thread("twice"),
    );
    expect(ran.map((r) => r.tool)).toEqual(["delete_order"]);
    expect(out.messages.at(-1)!.content).toBe(
      `Parent: Refund: Rejected by a reviewer; the call did not run. Reviewer's note: No refund.`,
    );
  });

  it("the general-purpose subagent inherits the parent's interruptOn", async () => {
    const { tools, ran } = orderTools();
    // One model serves parent and subagent, so a subagent restarted on resume would take
    // the wrong steps.
    const model = new ScriptedChatModel([
      delegate("general-purpose"),
      { toolCalls: [{ name: "delete_order", args: { order_id: "ORD-1" }, id: "s1" }] },
      "Deleted ORD-1.",
      (messages) => `Parent: ${messages.at(-1)!.text}`,
    ]);
    const agent = createDeepAgent({
      model,
      tools,
      interruptOn: { delete_order: true, task: { allowedDecisions: ["approve", "reject"] } },
      checkpointer: new MemorySaver(),
    });
    const first = await agent.invoke(user("delete ORD-1"), thread("gp"));
    expect(requestOf(first)!.actionRequests[0]!.name).toBe("task");
    const second = await agent.invoke(resume([{ type: "approve" }]), thread("gp"));
    expect(requestOf(second)!.actionRequests[0]!.name).toBe("delete_order");
    expect(ran).toEqual([]);
    const out = await agent.invoke(resume([{ type: "approve" }]), thread("gp"));
    expect(ran.map((r) => r.tool)).toEqual(["delete_order"]);
    expect(resultFor(out, "t1")!.content).toBe("Deleted ORD-1.");
    expect(out.messages.at(-1)!.content).toBe("Parent: Deleted ORD-1.");
  });

  it("a tool call running beside an interrupted task call is not run again on resume", async () => {
    const { tools, ran } = orderTools();
    const parent = new ScriptedChatModel([
      {
        toolCalls: [
          {
            name: "task",
            args: { description: "Delete ORD-1.", subagent_type: "clerk" },
            id: "t1",
          },
          { name: "get_order", args: { order_id: "ORD-9" }, id: "g1" },
        ],
      },
      "Parent done.",
    ]);
    const child = new ScriptedChatModel([
      { toolCalls: [{ name: "delete_order", args: { order_id: "ORD-1" }, id: "s1" }] },
      "Deleted.",
    ]);
    const agent = createDeepAgent({
      model: parent,
      tools,
      subagents: [{ name: "clerk", description: "Orders.", systemPrompt: "x", model: child }],
      interruptOn: { delete_order: true },
      checkpointer: new MemorySaver(),
    });
    await agent.invoke(user("go"), thread("sibling"));
    expect(ran.map((r) => r.tool)).toEqual(["get_order"]);
    const out = await agent.invoke(resume([{ type: "approve" }]), thread("sibling"));
    expect(ran.map((r) => r.tool)).toEqual(["get_order", "delete_order"]);
    expect(out.messages.at(-1)!.content).toBe("Parent done.");
  });

  it("parallel subagents pause together; a resume map keyed by interrupt id answers each one", async () => {
    const { tools, ran } = orderTools();
    const parent = new ScriptedChatModel([
      {
        toolCalls: [
          { name: "task", args: { description: "Delete ORD-1.", subagent_type: "a" }, id: "t1" },
          { name: "task", args: { description: "Delete ORD-2.", subagent_type: "b" }, id: "t2" },
        ],
      },
      "Parent done.",
    ]);
    const clerk = (name: string, order_id: string) => ({
      name,
      description: `Deletes ${order_id}.`,
      systemPrompt: "Delete the order.",
      model: new ScriptedChatModel([
        { toolCalls: [{ name: "delete_order", args: { order_id }, id: `s-${name}` }] },
        (messages) => messages.at(-1)!.text,
      ]),
    });
    const agent = createDeepAgent({
      model: parent,
      tools,
      subagents: [clerk("a", "ORD-1"), clerk("b", "ORD-2")],
      interruptOn: { delete_order: true },
      checkpointer: new MemorySaver(),
    });
    const paused = await agent.invoke(user("delete both"), thread("parallel"));
    const pending = paused.__interrupt__ as Array<{ id: string; value: any }>;
    expect(pending.map((i) => i.value.actionRequests[0].args.order_id).sort()).toEqual([
      "ORD-1",
      "ORD-2",
    ]);
    const answer = Object.fromEntries(
      pending.map((i) => [
        i.id,
        i.value.actionRequests[0].args.order_id === "ORD-1"
          ? { decisions: [{ type: "approve" }] }
          : { decisions: [{ type: "reject", message: "Keep ORD-2." }] },
      ]),
    );
    const out = await agent.invoke(new Command({ resume: answer }), thread("parallel"));
    expect(ran).toEqual([{ tool: "delete_order", args: { order_id: "ORD-1" } }]);
    expect(resultFor(out, "t2")!.content).toBe(
      `Rejected by a reviewer; the call did not run. Reviewer's note: Keep ORD-2.`,
    );
    expect(out.messages.at(-1)!.content).toBe("Parent done.");
  });

  it("an approved task call does not approve the subagent's interrupt paths", async () => {
    const model = new ScriptedChatModel([
      delegate("general-purpose"),
      {
        toolCalls: [
          { name: "write_file", args: { file_path: "/policies/a.md", content: "x" }, id: "s1" },
        ],
      },
      "Wrote it.",
      "Parent done.",
    ]);
    const agent = createDeepAgent({
      model,
      interruptOn: { task: true },
      permissions: [{ operations: ["write"], paths: ["/policies/**"], mode: "interrupt" }],
      checkpointer: new MemorySaver(),
    });
    await agent.invoke(user("write a policy"), thread("nested"));
    const inner = await agent.invoke(resume([{ type: "approve" }]), thread("nested"));
    expect(requestOf(inner)!.actionRequests[0]!.description).toMatch(/^Write to \/policies\/a\.md/);
    const out = await agent.invoke(resume([{ type: "approve" }]), thread("nested"));
    expect(out.files["/policies/a.md"].content).toBe("x");
  });

  it("a declarative subagent's own interruptOn is checked against its own tools", () => {
    const { tools } = orderTools();
    expect(() =>
      createDeepAgent({
        model: new ScriptedChatModel([]),
        tools,
        subagents: [
          {
            name: "reader",
            description: "Reads orders.",
            systemPrompt: "Read.",
            tools: [tools[2]!],
            interruptOn: { delete_order: true },
          },
        ],
        checkpointer: new MemorySaver(),
      }),
    ).toThrow(
      /subagents\[0\] \("reader"\)\.interruptOn names "delete_order", which is not a tool of this agent\. Its tools: get_order,/,
    );
  });

  it("a subagent's interruptOn needs the parent's checkpointer", () => {
    expect(() =>
      createDeepAgent({
        model: new ScriptedChatModel([]),
        tools: orderTools().tools,
        subagents: [
          {
            name: "clerk",
            description: "Handles orders.",
            systemPrompt: "x",
            interruptOn: { delete_order: true },
          },
        ],
      }),
    ).toThrow(
      /subagents\[0\] \("clerk"\)\.interruptOn\.delete_order pauses the run .*checkpointer/,
    );
  });
});
