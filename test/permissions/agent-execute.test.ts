import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigurationError, createDeepAgent, LocalShellBackend } from "delve";
import { ScriptedChatModel } from "delve/testing";
import { afterAll, describe, expect, it } from "vitest";

const root = mkdtempSync(join(tmpdir(), "delve-perm-exec-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("permissions never leave a silent hole through execute", () => {
  it("any rule with LocalShellBackend is a construction error that says why", () => {
    let error: unknown;
    try {
      createDeepAgent({
        model: new ScriptedChatModel([]),
        backend: new LocalShellBackend({ rootDir: root }),
        permissions: [{ operations: ["read"], paths: ["/secrets"], mode: "deny" }],
      });
    } catch (e) {
      error = e;
    }
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect((error as ConfigurationError).code).toBe("UNENFORCEABLE_PERMISSIONS");
    expect((error as Error).message).toMatch(/shell commands would bypass them/);
  });

  it("LocalShellBackend without rules builds, and execute is visible", () => {
    expect(() =>
      createDeepAgent({
        model: new ScriptedChatModel([]),
        backend: new LocalShellBackend({ rootDir: root }),
      }),
    ).not.toThrow();
  });
});

describe("backends are passed as instances", () => {
  it("a factory function is a construction error that says what to do", () => {
    let error: unknown;
    try {
      createDeepAgent({
        model: new ScriptedChatModel([]),
        backend: (() => new LocalShellBackend({ rootDir: root })) as any,
      });
    } catch (e) {
      error = e;
    }
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect((error as ConfigurationError).code).toBe("BACKEND_FACTORY");
    expect((error as Error).message).toMatch(/instance/);
  });
});

describe("the sandbox enforces literal rules for shell commands", () => {
  it("deny read hides the path from commands; deny write makes it read-only", async () => {
    const { SandboxBackend } = await import("../../src/index.js");
    const { mkdirSync, writeFileSync, readFileSync } = await import("node:fs");
    const dir = mkdtempSync(join(tmpdir(), "delve-sandbox-perm-"));
    mkdirSync(join(dir, "secrets"));
    mkdirSync(join(dir, "policies"));
    writeFileSync(join(dir, "secrets", "key.txt"), "sk-live-123");
    writeFileSync(join(dir, "policies", "refunds.md"), "30 days");
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          { name: "execute", args: { command: "cat secrets/key.txt; ls secrets | wc -l" } },
          { name: "execute", args: { command: "echo never > policies/refunds.md" } },
        ],
      },
      "done",
    ]);
    const agent = createDeepAgent({
      model,
      backend: new SandboxBackend({ rootDir: dir }),
      permissions: [
        { operations: ["read", "write"], paths: ["/secrets/**"], mode: "deny" },
        { operations: ["write"], paths: ["/policies"], mode: "deny" },
      ],
    });
    const out = await agent.invoke({ messages: [{ role: "user", content: "try" }] });
    const text = out.messages.map((m: any) => String(m.content)).join("\n");
    expect(text).not.toContain("sk-live-123");
    expect(readFileSync(join(dir, "policies", "refunds.md"), "utf8")).toBe("30 days");
    rmSync(dir, { recursive: true, force: true });
  });

  it("a wildcard rule cannot be enforced by mounts: construction error naming it", async () => {
    const { SandboxBackend } = await import("../../src/index.js");
    expect(() =>
      createDeepAgent({
        model: new ScriptedChatModel([]),
        backend: new SandboxBackend({ rootDir: root }),
        permissions: [{ operations: ["read"], paths: ["/docs/*.md"], mode: "deny" }],
      }),
    ).toThrow(/\/docs\/\*\.md/);
  });
});
