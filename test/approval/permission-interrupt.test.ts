import { MemorySaver } from "@langchain/langgraph";
import type { PermissionRule } from "delve";
import { ConfigurationError, createDeepAgent, filesystemMiddleware } from "delve";
import { ScriptedChatModel } from "delve/testing";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { runWithApproval } from "../../src/approval/scope.js";
import { guardFromRules } from "../../src/filesystem/permission-guard.js";
import { requestOf, resultFor, resume, thread, user } from "./helpers.js";

const POLICIES: PermissionRule[] = [
  { operations: ["write"], paths: ["/secrets/**"], mode: "deny" },
  { operations: ["write"], paths: ["/policies/**"], mode: "interrupt" },
  { operations: ["read"], paths: ["/vault/**"], mode: "interrupt" },
];
const file = (content: string) => ({
  content,
  encoding: "utf-8" as const,
  createdAt: "2026-01-01T00:00:00.000Z",
  modifiedAt: "2026-01-01T00:00:00.000Z",
});
const SEED = { "/vault/key.txt": file("k-123"), "/vault/old.txt": file("old") };

const agentWith = (model: ScriptedChatModel) =>
  createDeepAgent({ model, permissions: POLICIES, checkpointer: new MemorySaver() });

const writes = (file_path: string, id: string) => ({
  toolCalls: [{ name: "write_file", args: { file_path, content: "refunds: 30 days" }, id }],
});

describe('permission rules in mode "interrupt"', () => {
  it("a write to /policies/** pauses with the path in the request; approve -> written", async () => {
    const model = new ScriptedChatModel([writes("/policies/refunds.md", "w1"), "Saved."]);
    const agent = agentWith(model);
    const paused = await agent.invoke(user("save the policy"), thread("p-approve"));
    const [action] = requestOf(paused)!.actionRequests;
    expect(action!.name).toBe("write_file");
    expect(action!.args.file_path).toBe("/policies/refunds.md");
    expect(action!.description).toBe(
      "Write to /policies/refunds.md needs human approval under rule 2 (interrupt write /policies/**).",
    );
    expect(paused.files?.["/policies/refunds.md"]).toBeUndefined();
    const out = await agent.invoke(resume([{ type: "approve" }]), thread("p-approve"));
    expect(out.files["/policies/refunds.md"].content).toBe("refunds: 30 days");
    expect(resultFor(out, "w1")!.content).toMatch(/^Wrote \/policies\/refunds\.md/);
  });

  it("reject -> not written, and the model reads the reviewer's message", async () => {
    const model = new ScriptedChatModel([writes("/policies/refunds.md", "w1"), "Understood."]);
    const agent = agentWith(model);
    await agent.invoke(user("save the policy"), thread("p-reject"));
    const out = await agent.invoke(
      resume([{ type: "reject", message: "Legal must review policy changes." }]),
      thread("p-reject"),
    );
    expect(out.files?.["/policies/refunds.md"]).toBeUndefined();
    expect(resultFor(out, "w1")!.content).toBe(
      `Rejected by a reviewer; the call did not run. Reviewer's note: Legal must review policy changes.`,
    );
    expect(model.calls[1]!.messages.at(-1)!.text).toBe(
      `Rejected by a reviewer; the call did not run. Reviewer's note: Legal must review policy changes.`,
    );
  });

  it("an edit into a denied area goes through the rules again: the tool refuses it", async () => {
    const model = new ScriptedChatModel([writes("/policies/refunds.md", "w1"), "Hm."]);
    const agent = agentWith(model);
    await agent.invoke(user("save"), thread("p-deny"));
    const out = await agent.invoke(
      resume([
        {
          type: "edit",
          editedAction: {
            name: "write_file",
            args: { file_path: "/secrets/x.md", content: "leak" },
          },
        },
      ]),
      thread("p-deny"),
    );
    const result = resultFor(out, "w1")!;
    expect(result.status).toBe("error");
    expect(result.content).toMatch(
      /Permission denied: write to \/secrets\/x\.md is blocked by rule 1/,
    );
    expect(out.files?.["/secrets/x.md"]).toBeUndefined();
  });

  it("edited arguments of a built-in tool are validated against its JSON schema", async () => {
    const model = new ScriptedChatModel([writes("/policies/refunds.md", "w1"), "Saved."]);
    const agent = agentWith(model);
    await agent.invoke(user("save"), thread("p-schema"));
    const retry = await agent.invoke(
      resume([{ type: "edit", editedAction: { name: "write_file", args: { content: "x" } } }]),
      thread("p-schema"),
    );
    expect(requestOf(retry)!.error).toMatch(
      /decisions\[0\] \(write_file\): the edited arguments do not match the tool's schema: .*"file_path"/,
    );
    const out = await agent.invoke(
      resume([
        {
          type: "edit",
          editedAction: {
            name: "write_file",
            args: { file_path: "/policies/v2.md", content: "x" },
          },
        },
      ]),
      thread("p-schema"),
    );
    expect(Object.keys(out.files)).toEqual(["/policies/v2.md"]);
  });

  it("an approval covers one call: the same write in a later turn is asked about again", async () => {
    const model = new ScriptedChatModel([
      writes("/policies/a.md", "w1"),
      writes("/policies/a.md", "w1"),
      "Done.",
    ]);
    const agent = agentWith(model);
    await agent.invoke(user("write twice"), thread("p-once"));
    const second = await agent.invoke(resume([{ type: "approve" }]), thread("p-once"));
    expect(requestOf(second)!.actionRequests[0]!.args.file_path).toBe("/policies/a.md");
    const out = await agent.invoke(
      resume([{ type: "reject", message: "once is enough" }]),
      thread("p-once"),
    );
    expect(out.messages.at(-1)!.content).toBe("Done.");
  });

  it("read_file and ls under an interrupt read rule pause; an approved ls lists what it approved", async () => {
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          { name: "ls", args: { path: "/vault" }, id: "l1" },
          { name: "read_file", args: { file_path: "/vault/key.txt" }, id: "r1" },
          { name: "ls", args: { path: "/" }, id: "l2" },
        ],
      },
      "Read.",
    ]);
    const agent = agentWith(model);
    const paused = await agent.invoke({ ...user("look"), files: SEED }, thread("p-read"));
    expect(requestOf(paused)!.actionRequests.map((a) => a.args)).toEqual([
      { path: "/vault" },
      { file_path: "/vault/key.txt" },
    ]);
    const out = await agent.invoke(
      resume([{ type: "approve" }, { type: "approve" }]),
      thread("p-read"),
    );
    expect(resultFor(out, "l1")!.content).toMatch(/\/vault\/key\.txt/);
    expect(resultFor(out, "r1")!.content).toMatch(/k-123/);
    // The unapproved listing of / still hides what needs approval to read.
    expect(resultFor(out, "l2")!.content).not.toMatch(/key\.txt/);
  });

  it("a delete of a directory holding an interrupt path pauses", async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "delete", args: { file_path: "/policies" }, id: "x1" }] },
      "Kept.",
    ]);
    const agent = agentWith(model);
    const paused = await agent.invoke(
      { ...user("clean"), files: { "/policies/a.md": file("a") } },
      thread("p-delete"),
    );
    expect(requestOf(paused)!.actionRequests[0]!.description).toMatch(
      /^Removing \/policies needs human approval under rule 2/,
    );
    const out = await agent.invoke(resume([{ type: "approve" }]), thread("p-delete"));
    expect(out.files["/policies/a.md"]).toBeUndefined();
  });

  it("an interrupt rule without a checkpointer is a construction error", () => {
    let error: unknown;
    try {
      createDeepAgent({ model: new ScriptedChatModel([]), permissions: POLICIES });
    } catch (e) {
      error = e;
    }
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /permissions\[1\] \(mode "interrupt"\), permissions\[2\] \(mode "interrupt"\) pause the run .*checkpointer/,
    );
  });
});

describe("the approval scope", () => {
  const guard = guardFromRules(POLICIES);
  const approved = (path: string) => ({
    toolCallId: "w1",
    name: "write_file",
    paths: [{ operation: "write" as const, path, reason: "" }],
  });

  it("lets exactly the approved operation and path pass; deny rules still refuse", () => {
    expect(guard.write("/policies/a.md")).toMatch(/needs human approval/);
    runWithApproval(approved("/policies/a.md"), () => {
      expect(guard.write("/policies/a.md")).toBeUndefined();
      expect(guard.write("/policies/b.md")).toMatch(/needs human approval/);
      expect(guard.read("/vault/key.txt")).toMatch(/needs human approval/);
      expect(guard.delete("/policies/a.md")).toMatch(/needs human approval/);
    });
    runWithApproval(approved("/secrets/x.md"), () => {
      expect(guard.write("/secrets/x.md")).toMatch(/blocked by rule 1/);
    });
    expect(guard.write("/policies/a.md")).toMatch(/needs human approval/);
  });

  it("the filesystem middleware used without the approval layer refuses interrupt paths", async () => {
    const model = new ScriptedChatModel([writes("/policies/a.md", "w1"), "ok"]);
    const agent = createAgent({
      model,
      tools: [],
      middleware: [filesystemMiddleware({ permissions: POLICIES })],
    } as any);
    const out: any = await agent.invoke(user("write"));
    expect(resultFor(out, "w1")!.content).toMatch(/needs human approval under rule 2/);
    expect(out.files?.["/policies/a.md"]).toBeUndefined();
  });
});
