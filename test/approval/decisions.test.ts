import { tool } from "@langchain/core/tools";
import { MemorySaver } from "@langchain/langgraph";
import { ConfigurationError, createDeepAgent, inspectSurface } from "delve";
import { ScriptedChatModel } from "delve/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { aiWithCall, orderTools, requestOf, resultFor, resume, thread, user } from "./helpers.js";

const gatedAgent = (
  model: ScriptedChatModel,
  interruptOn: any = { delete_order: true, refund_order: true },
) => {
  const { tools, ran } = orderTools();
  const agent = createDeepAgent({ model, tools, interruptOn, checkpointer: new MemorySaver() });
  return { agent, ran };
};

describe("approve, edit, reject", () => {
  it("approve: the run pauses before the call, then runs it once with its arguments", async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "delete_order", args: { order_id: "ORD-1" }, id: "d1" }] },
      "Deleted.",
    ]);
    const { agent, ran } = gatedAgent(model);
    const paused = await agent.invoke(user("delete ORD-1"), thread("approve"));
    expect(requestOf(paused)).toEqual({
      actionRequests: [
        {
          name: "delete_order",
          args: { order_id: "ORD-1" },
          description: "delete_order needs approval before it runs.",
        },
      ],
      reviewConfigs: [
        { actionName: "delete_order", allowedDecisions: ["approve", "edit", "reject"] },
      ],
      toolCallIds: ["d1"],
    });
    expect(ran).toEqual([]);
    const out = await agent.invoke(resume([{ type: "approve" }]), thread("approve"));
    expect(ran).toEqual([{ tool: "delete_order", args: { order_id: "ORD-1" } }]);
    expect(resultFor(out, "d1")!.content).toContain('"deleted":"ORD-1"');
    expect(out.messages.at(-1)!.content).toBe("Deleted.");
  });

  it("edit: the call runs with the reviewer's arguments, in the same AI message the model sees next, and its result says what changed", async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "refund_order", args: { order_id: "ORD-1", amount: 400 }, id: "r1" }] },
      (messages) => `Reported: ${messages.at(-1)!.text}`,
    ]);
    const { agent, ran } = gatedAgent(model);
    const paused = await agent.invoke(user("refund"), thread("edit"));
    const originalId = aiWithCall(paused, "r1")!.id;
    const out = await agent.invoke(
      resume([
        {
          type: "edit",
          editedAction: { name: "refund_order", args: { order_id: "ORD-1", amount: 40 } },
        },
      ]),
      thread("edit"),
    );
    expect(ran).toEqual([{ tool: "refund_order", args: { order_id: "ORD-1", amount: 40 } }]);
    const ai = aiWithCall(out, "r1")!;
    expect(ai.id).toBe(originalId);
    expect(ai.tool_calls![0]!.args).toEqual({ order_id: "ORD-1", amount: 40 });
    expect(out.messages.filter((m: any) => m.id === originalId)).toHaveLength(1);
    const seen = model.calls[1]!.messages.find((m: any) => m.id === originalId) as any;
    expect(seen.tool_calls[0].args.amount).toBe(40);
    // The model is told its call was changed, before the tool's own result.
    expect(resultFor(out, "r1")!.content).toBe(
      'A reviewer changed this call before it ran: amount 400 -> 40.\n\n{"ok":true,"refunded":40}',
    );
    expect(out.messages.at(-1)!.content).toMatch(/^Reported: A reviewer changed this call/);
  });

  it("an edit that adds, removes and changes arguments lists each; an edit to the same arguments adds nothing", async () => {
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          { name: "refund_order", args: { order_id: "ORD-1", amount: 400 }, id: "r1" },
          { name: "delete_order", args: { order_id: "ORD-2" }, id: "d1" },
        ],
      },
      "Done.",
    ]);
    const { agent } = gatedAgent(model);
    await agent.invoke(user("refund and delete"), thread("edit-kinds"));
    const out = await agent.invoke(
      resume([
        {
          type: "edit",
          editedAction: { name: "refund_order", args: { order_id: "ORD-9", amount: 400 } },
        },
        { type: "edit", editedAction: { name: "delete_order", args: { order_id: "ORD-2" } } },
      ]),
      thread("edit-kinds"),
    );
    expect(resultFor(out, "r1")!.content).toMatch(
      /^A reviewer changed this call before it ran: order_id "ORD-1" -> "ORD-9"\.\n\n/,
    );
    expect(resultFor(out, "d1")!.content).toBe('{"ok":true,"deleted":"ORD-2"}');
  });

  it("reject: nothing runs, the call's result says it was rejected and gives the reviewer's note, and the model goes on", async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "delete_order", args: { order_id: "ORD-1" }, id: "d1" }] },
      (messages) => `Not deleted: ${messages.at(-1)!.text}`,
    ]);
    const { agent, ran } = gatedAgent(model);
    await agent.invoke(user("delete ORD-1"), thread("reject"));
    const out = await agent.invoke(
      resume([{ type: "reject", message: "Orders older than 30 days only." }]),
      thread("reject"),
    );
    expect(ran).toEqual([]);
    const result = resultFor(out, "d1")!;
    expect(result.content).toBe(
      "Rejected by a reviewer; the call did not run. Reviewer's note: Orders older than 30 days only.",
    );
    expect(result.status).toBe("error");
    expect(out.messages.at(-1)!.content).toBe(
      "Not deleted: Rejected by a reviewer; the call did not run. Reviewer's note: Orders older than 30 days only.",
    );
  });

  it("reject without a note: the result still says the call was rejected and did not run", async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "delete_order", args: { order_id: "ORD-1" }, id: "d1" }] },
      "Not deleted.",
    ]);
    const { agent, ran } = gatedAgent(model);
    await agent.invoke(user("delete ORD-1"), thread("reject-bare"));
    const out = await agent.invoke(resume([{ type: "reject" }]), thread("reject-bare"));
    expect(ran).toEqual([]);
    expect(resultFor(out, "d1")!.content).toBe("Rejected by a reviewer; the call did not run.");
  });

  it("a mixed turn: one interrupt lists the two gated calls; approve + reject; the ungated call runs too", async () => {
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          { name: "delete_order", args: { order_id: "ORD-1" }, id: "d1" },
          { name: "get_order", args: { order_id: "ORD-2" }, id: "g1" },
          { name: "refund_order", args: { order_id: "ORD-3", amount: 10 }, id: "r1" },
        ],
      },
      "Done.",
    ]);
    const { agent, ran } = gatedAgent(model);
    const paused = await agent.invoke(user("clean up"), thread("mixed"));
    expect(paused.__interrupt__).toHaveLength(1);
    expect(requestOf(paused)!.actionRequests.map((a) => a.name)).toEqual([
      "delete_order",
      "refund_order",
    ]);
    expect(ran).toEqual([]);
    const out = await agent.invoke(
      resume([{ type: "approve" }, { type: "reject", message: "No refunds today." }]),
      thread("mixed"),
    );
    expect(ran.map((r) => r.tool).sort()).toEqual(["delete_order", "get_order"]);
    expect(resultFor(out, "d1")!.status).not.toBe("error");
    expect(resultFor(out, "g1")!.content).toContain('"status":"paid"');
    expect(resultFor(out, "r1")!.content).toBe(
      "Rejected by a reviewer; the call did not run. Reviewer's note: No refunds today.",
    );
    expect(out.messages.at(-1)!.content).toBe("Done.");
    // Every call of the turn has exactly one result before the model is called again.
    const answered = model.calls[1]!.messages.filter((m: any) => m.tool_call_id).map(
      (m: any) => m.tool_call_id,
    );
    expect(answered.sort()).toEqual(["d1", "g1", "r1"]);
  });

  it("the description is a string or a function of the call", async () => {
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          { name: "delete_order", args: { order_id: "ORD-1" }, id: "d1" },
          { name: "refund_order", args: { order_id: "ORD-1", amount: 5 }, id: "r1" },
        ],
      },
    ]);
    const { agent } = gatedAgent(model, {
      delete_order: { description: "Deleting cannot be undone." },
      refund_order: {
        allowedDecisions: ["approve", "reject"],
        description: (call: any) => `Refund ${call.args.amount} EUR on ${call.args.order_id}?`,
      },
    });
    const request = requestOf(await agent.invoke(user("x"), thread("describe")))!;
    expect(request.actionRequests.map((a) => a.description)).toEqual([
      "Deleting cannot be undone.",
      "Refund 5 EUR on ORD-1?",
    ]);
    expect(request.reviewConfigs[1]!.allowedDecisions).toEqual(["approve", "reject"]);
  });

  it("a built-in tool can be gated: write_file pauses, then writes once approved", async () => {
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          { name: "write_file", args: { file_path: "/brief.md", content: "hi" }, id: "w1" },
        ],
      },
      "Written.",
    ]);
    const { agent } = gatedAgent(model, { write_file: true });
    const paused = await agent.invoke(user("write"), thread("builtin"));
    expect(requestOf(paused)!.actionRequests[0]!.name).toBe("write_file");
    expect(paused.files?.["/brief.md"]).toBeUndefined();
    const out = await agent.invoke(resume([{ type: "approve" }]), thread("builtin"));
    expect(out.files["/brief.md"]).toBeDefined();
  });
});

describe("a resume that cannot be applied gets a fresh interrupt and nothing runs", () => {
  const twoGated = () =>
    new ScriptedChatModel([
      {
        toolCalls: [
          { name: "delete_order", args: { order_id: "ORD-1" }, id: "d1" },
          { name: "get_order", args: { order_id: "ORD-1" }, id: "g1" },
          { name: "refund_order", args: { order_id: "ORD-1", amount: 10 }, id: "r1" },
        ],
      },
      "Done.",
    ]);

  it("a wrong number of decisions; then a correct resume runs each call exactly once", async () => {
    const { agent, ran } = gatedAgent(twoGated());
    const first = requestOf(await agent.invoke(user("x"), thread("count")))!;
    const again = await agent.invoke(resume([{ type: "approve" }]), thread("count"));
    const retry = requestOf(again)!;
    expect(retry.error).toMatch(/Expected 2 decisions .*got 1/);
    expect(retry.actionRequests).toEqual(first.actionRequests);
    expect(ran).toEqual([]);
    const out = await agent.invoke(
      resume([{ type: "approve" }, { type: "approve" }]),
      thread("count"),
    );
    expect(requestOf(out)).toBeUndefined();
    expect(ran.map((r) => r.tool).sort()).toEqual(["delete_order", "get_order", "refund_order"]);
    expect(out.messages.at(-1)!.content).toBe("Done.");
  });

  it("a rename is refused: an edit may change the arguments, not the tool", async () => {
    const { agent, ran } = gatedAgent(twoGated());
    await agent.invoke(user("x"), thread("rename"));
    const renamed = await agent.invoke(
      resume([
        { type: "edit", editedAction: { name: "get_order", args: { order_id: "ORD-1" } } },
        { type: "approve" },
      ]),
      thread("rename"),
    );
    expect(requestOf(renamed)!.error).toMatch(
      /decisions\[0\] \(delete_order\) renames the call to "get_order"/,
    );
    expect(ran).toEqual([]);
    const out = await agent.invoke(
      resume([{ type: "reject" }, { type: "reject" }]),
      thread("rename"),
    );
    expect(ran.map((r) => r.tool)).toEqual(["get_order"]);
    expect(resultFor(out, "d1")!.status).toBe("error");
  });

  it("edited arguments are validated against the tool's schema", async () => {
    const { agent, ran } = gatedAgent(twoGated());
    await agent.invoke(user("x"), thread("invalid"));
    const invalid = await agent.invoke(
      resume([
        { type: "approve" },
        {
          type: "edit",
          editedAction: { name: "refund_order", args: { order_id: "ORD-1", amount: 9000 } },
        },
      ]),
      thread("invalid"),
    );
    expect(requestOf(invalid)!.error).toMatch(
      /decisions\[1\] \(refund_order\): the edited arguments do not match .*amount/,
    );
    expect(ran).toEqual([]);
    const out = await agent.invoke(
      resume([
        { type: "approve" },
        {
          type: "edit",
          editedAction: { name: "refund_order", args: { order_id: "ORD-1", amount: 90 } },
        },
      ]),
      thread("invalid"),
    );
    expect(ran.find((r) => r.tool === "refund_order")!.args).toEqual({
      order_id: "ORD-1",
      amount: 90,
    });
    expect(ran).toHaveLength(3);
    expect(out.messages.at(-1)!.content).toBe("Done.");
  });

  it("an unknown decision type, or one the tool does not allow, is named", async () => {
    const { agent, ran } = gatedAgent(twoGated(), {
      delete_order: { allowedDecisions: ["approve", "reject"] },
      refund_order: true,
    });
    await agent.invoke(user("x"), thread("types"));
    const bad = await agent.invoke(
      resume([
        { type: "edit", editedAction: { name: "delete_order", args: { order_id: "ORD-2" } } },
        { type: "approved" },
      ]),
      thread("types"),
    );
    const { error } = requestOf(bad)!;
    expect(error).toMatch(
      /decisions\[0\] \(delete_order\): "edit" is not allowed here; allowed: approve, reject/,
    );
    expect(error).toMatch(/decisions\[1\] \(refund_order\) has unknown type "approved"/);
    const noDecisions = requestOf(await agent.invoke(resume(undefined), thread("types")))!;
    expect(noDecisions.error).toMatch(/Resume with \{ decisions/);
    expect(ran).toEqual([]);
  });
});

describe("approval never replaces the tool's own checks", () => {
  it("an approved update by a user without rights still gets FORBIDDEN", async () => {
    let changed = 0;
    const update = tool(
      async ({ incident_id }: { incident_id: string }, runtime: any) => {
        if (!runtime?.context?.can_update) return JSON.stringify({ ok: false, code: "FORBIDDEN" });
        changed++;
        return JSON.stringify({ ok: true, changed: true, incident_id });
      },
      {
        name: "update_incident_status",
        description: "Move an incident to investigating.",
        schema: z.object({ incident_id: z.string() }),
      },
    );
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          { name: "update_incident_status", args: { incident_id: "INC-1024" }, id: "u1" },
        ],
      },
      "Tried.",
    ]);
    const agent = createDeepAgent({
      model,
      tools: [update],
      interruptOn: { update_incident_status: true },
      contextSchema: z.object({ user_id: z.string(), can_update: z.boolean() }),
      checkpointer: new MemorySaver(),
    });
    const config = { ...thread("forbidden"), context: { user_id: "viewer-7", can_update: false } };
    await agent.invoke(user("update INC-1024"), config);
    const out = await agent.invoke(resume([{ type: "approve" }]), config);
    expect(resultFor(out, "u1")!.content).toContain('"code":"FORBIDDEN"');
    expect(changed).toBe(0);
  });
});

describe("construction", () => {
  const model = () => new ScriptedChatModel([]);

  it("interruptOn without a checkpointer is a construction error saying to pass one", () => {
    let error: unknown;
    try {
      createDeepAgent({
        model: model(),
        tools: orderTools().tools,
        interruptOn: { delete_order: true },
      });
    } catch (e) {
      error = e;
    }
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect((error as ConfigurationError).code).toBe("CHECKPOINTER_REQUIRED");
    expect((error as Error).message).toMatch(
      /interruptOn\.delete_order .*checkpointer.*MemorySaver.*SqliteSaver/,
    );
  });

  it("an interruptOn key naming no tool of the agent lists its tools", () => {
    expect(() =>
      createDeepAgent({
        model: model(),
        tools: orderTools().tools,
        interruptOn: { delete_ordr: true },
        checkpointer: new MemorySaver(),
      }),
    ).toThrow(
      /interruptOn names "delete_ordr", which is not a tool of this agent\. Its tools: .*delete_order.*write_file.*task/,
    );
  });

  it("malformed interruptOn values are refused", () => {
    const make = (interruptOn: any) => () =>
      createDeepAgent({
        model: model(),
        tools: orderTools().tools,
        interruptOn,
        checkpointer: new MemorySaver(),
      });
    expect(make({ delete_order: { allowedDecisions: ["approve", "maybe"] } })).toThrow(
      /allowedDecisions/,
    );
    expect(make({ delete_order: { allowed: ["approve"] } })).toThrow(/unknown field "allowed"/);
    expect(make({ delete_order: "yes" })).toThrow(/must be true, false/);
    expect(make(["delete_order"])).toThrow(/must be an object/);
  });

  it("false gates nothing and needs no checkpointer", () => {
    expect(() =>
      createDeepAgent({
        model: model(),
        tools: orderTools().tools,
        interruptOn: { delete_order: false },
      }),
    ).not.toThrow();
  });

  it("approval adds no tools: inspectSurface reports the same surface", async () => {
    const { tools } = orderTools();
    const plain = await inspectSurface(createDeepAgent({ model: model(), tools }));
    const gated = await inspectSurface(
      createDeepAgent({
        model: model(),
        tools,
        interruptOn: { delete_order: true, write_file: true },
        permissions: [{ operations: ["write"], paths: ["/policies/**"], mode: "interrupt" }],
        checkpointer: new MemorySaver(),
      }),
    );
    expect(gated.registered).toEqual(plain.registered);
    expect(gated.visible).toEqual(plain.visible);
    expect(gated.totalChars).toBe(plain.totalChars);
  });
});
