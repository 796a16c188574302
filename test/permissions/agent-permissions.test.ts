import { ToolMessage } from "@langchain/core/messages";
import { createDeepAgent, filesystemMiddleware, type PermissionRule } from "delve";
import { ScriptedChatModel, type ScriptedToolCall } from "delve/testing";
import { describe, expect, it } from "vitest";

const SEED = {
  "/secrets/.env": "API_KEY=sk-live-123",
  "/secrets/db/password.txt": "hunter2",
  "/policies/refunds.md": "Refunds within 30 days.",
  "/notes/todo.md": "call the courier; sk-live-123 must never leak",
};

const denySecrets: PermissionRule[] = [
  { operations: ["read", "write"], paths: ["/secrets/**"], mode: "deny" },
  { operations: ["write"], paths: ["/policies/**"], mode: "deny" },
];

/** Runs one model turn with the given tool calls and returns the tool results by call. */
async function runCalls(calls: ScriptedToolCall[], options: Record<string, unknown> = {}) {
  const model = new ScriptedChatModel([{ toolCalls: calls }, "done"]);
  const agent = createDeepAgent({ model, permissions: denySecrets, ...options } as any);
  const out = await agent.invoke({
    messages: [{ role: "user", content: "go" }],
    files: { ...SEED },
  });
  const results = out.messages.filter((m: unknown) => ToolMessage.isInstance(m)) as ToolMessage[];
  return { results, files: out.files as Record<string, { content: string }> };
}

describe("path permissions on the file tools", () => {
  it("a deny of /secrets/** blocks reading /secrets/.env", async () => {
    const { results } = await runCalls([
      { name: "read_file", args: { file_path: "/secrets/.env" } },
    ]);
    expect(results[0]!.status).toBe("error");
    expect(results[0]!.content).toMatch(/Permission denied: read of \/secrets\/.env/);
    expect(results[0]!.content).not.toContain("sk-live");
  });

  it("non-normalised spellings hit the rule too", async () => {
    const spellings = [
      "secrets/.env",
      "/secrets//.env",
      "/./secrets/.env",
      "//secrets/db/password.txt",
    ];
    const { results } = await runCalls(
      spellings.map((p) => ({ name: "read_file", args: { file_path: p } })),
    );
    for (const result of results) {
      expect(result.status).toBe("error");
      expect(String(result.content)).not.toMatch(/sk-live|hunter2/);
    }
    const traversal = await runCalls([
      { name: "read_file", args: { file_path: "/x/../secrets/.env" } },
    ]);
    expect(traversal.results[0]!.status).toBe("error");
    expect(String(traversal.results[0]!.content)).not.toContain("sk-live");
  });

  it("writes to a denied path do nothing", async () => {
    const { results, files } = await runCalls([
      {
        name: "write_file",
        args: { file_path: "/policies/refunds.md", content: "Refunds never." },
      },
      {
        name: "edit_file",
        args: { file_path: "/policies/refunds.md", old_string: "30", new_string: "3" },
      },
      { name: "write_file", args: { file_path: "/secrets/new.txt", content: "x" } },
      { name: "write_file", args: { file_path: "/notes/ok.md", content: "allowed" } },
    ]);
    expect(results.map((r) => r.status)).toEqual(["error", "error", "error", "success"]);
    expect(files["/policies/refunds.md"]!.content).toBe("Refunds within 30 days.");
    expect(files["/secrets/new.txt"]).toBeUndefined();
    expect(files["/notes/ok.md"]!.content).toBe("allowed");
  });

  it("delete is a write checked against everything under the deleted path", async () => {
    const { results, files } = await runCalls([
      { name: "delete", args: { file_path: "/policies" } },
      { name: "delete", args: { file_path: "/secrets/db" } },
      { name: "delete", args: { file_path: "/notes" } },
    ]);
    expect(results.map((r) => r.status)).toEqual(["error", "error", "success"]);
    expect(files["/policies/refunds.md"]).toBeDefined();
    expect(files["/secrets/db/password.txt"]).toBeDefined();
    expect(files["/notes/todo.md"]).toBeUndefined();
  });

  it('ls("/"), glob("**") and grep in every output mode never reveal denied paths', async () => {
    const { results } = await runCalls([
      { name: "ls", args: { path: "/" } },
      { name: "ls", args: { path: "/secrets" } },
      { name: "glob", args: { pattern: "**" } },
      { name: "glob", args: { pattern: ".*" } },
      { name: "grep", args: { pattern: "sk-live" } },
      { name: "grep", args: { pattern: "sk-live", output_mode: "content" } },
      { name: "grep", args: { pattern: "sk-live", output_mode: "count" } },
      { name: "grep", args: { pattern: "hunter2", path: "/secrets" } },
    ]);
    // Listing or searching the denied directory itself is refused (the error only echoes
    // the model's path and names the rule).
    expect(results[1]!.status).toBe("error");
    expect(results[7]!.status).toBe("error");
    const text = results
      .filter((_, i) => i !== 1 && i !== 7)
      .map((r) => String(r.content))
      .join("\n");
    expect(text).not.toMatch(/\/secrets|\.env|hunter2|API_KEY/);
    // The allowed file that mentions the string is still found.
    expect(String(results[5]!.content)).toContain("/notes/todo.md\n1: ");
  });

  it("a grep or glob rooted in a denied path is refused as ls is, naming the rule", async () => {
    const { results } = await runCalls([
      { name: "ls", args: { path: "/secrets/db" } },
      { name: "grep", args: { pattern: "hunter2", path: "/secrets/db" } },
      { name: "glob", args: { pattern: "*.txt", path: "/secrets/db" } },
      { name: "grep", args: { pattern: "x", path: "/secrets/db/password.txt", glob: "*" } },
      { name: "glob", args: { pattern: "**", path: "/secrets/absent" } },
    ]);
    const refusal = (path: string) =>
      `Error: Permission denied: read of ${path} is blocked by rule 1 (deny read /secrets/**).`;
    expect(results.map((r) => [r.status, r.content])).toEqual([
      ["error", refusal("/secrets/db")],
      ["error", refusal("/secrets/db")],
      ["error", refusal("/secrets/db")],
      ["error", refusal("/secrets/db/password.txt")],
      ["error", refusal("/secrets/absent")],
    ]);
    // What a rule hides inside an allowed walk stays silent: no count, no name.
    const walk = await runCalls([{ name: "glob", args: { pattern: "**/*.txt", path: "/" } }]);
    expect(walk.results[0]!.content).toBe("No files found");
  });

  it("replacing the filesystem middleware keeps the permissions", async () => {
    const { results } = await runCalls(
      [
        { name: "read_file", args: { file_path: "/secrets/.env" } },
        { name: "glob", args: { pattern: "**" } },
      ],
      { middleware: [filesystemMiddleware({ tools: ["ls", "read_file", "glob"] })] },
    );
    expect(results[0]!.status).toBe("error");
    expect(String(results[1]!.content)).not.toContain("/secrets");
  });

  it("permissions on a filesystem middleware of its own apply as well", async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "read_file", args: { file_path: "/secrets/.env" } }] },
      "done",
    ]);
    const agent = createDeepAgent({
      model,
      middleware: [filesystemMiddleware({ permissions: denySecrets })],
    });
    const out = await agent.invoke({ messages: [{ role: "user", content: "go" }], files: SEED });
    const result = out.messages.find((m: unknown) => ToolMessage.isInstance(m)) as ToolMessage;
    expect(result.status).toBe("error");
  });

  it("malformed rules fail at construction naming the rule", () => {
    expect(() =>
      createDeepAgent({
        model: new ScriptedChatModel([]),
        permissions: [{ operations: ["delete"], paths: ["/x"], mode: "deny" }] as any,
      }),
    ).toThrow(/permissions\[0\]/);
  });
});
