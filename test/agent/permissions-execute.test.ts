import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigurationError, createDeepAgent, LocalShellBackend } from "../../src/index.js";
import { ScriptedChatModel } from "../../src/testing/index.js";

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
      createDeepAgent({ model: new ScriptedChatModel([]), backend: new LocalShellBackend({ rootDir: root }) }),
    ).not.toThrow();
  });
});

describe("backends are passed as instances", () => {
  it("a factory function is a construction error that says what to do", () => {
    let error: unknown;
    try {
      createDeepAgent({ model: new ScriptedChatModel([]), backend: (() => new LocalShellBackend({ rootDir: root })) as any });
    } catch (e) {
      error = e;
    }
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect((error as ConfigurationError).code).toBe("BACKEND_FACTORY");
    expect((error as Error).message).toMatch(/instance/);
  });
});
