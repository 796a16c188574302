import { describe, expect, it } from "vitest";
import {
  fsTools,
  ScriptedExecBackend,
  surfaceText,
  toolNamed,
  visibleTools,
} from "./fs-harness.js";

const exec = (answer: ConstructorParameters<typeof ScriptedExecBackend>[0]) =>
  fsTools({ backend: new ScriptedExecBackend(answer) });

describe("execute", () => {
  it("the model-facing text, naming only the file tools present", () => {
    const full = exec(() => ({ output: "", exitCode: 0, truncated: false })).tools;
    expect(surfaceText([toolNamed(full, "execute")])).toMatchInlineSnapshot(`
      "## execute
      Run a shell command in the workspace; returns its output and exit code. Long commands are killed at the timeout and output is capped. Prefer read_file, edit_file, grep for file work.
      {"type":"object","properties":{"command":{"type":"string","minLength":1}},"required":["command"]}"
    `);
    const narrow = fsTools({
      tools: ["read_file", "execute"],
      backend: new ScriptedExecBackend(() => ({ output: "", exitCode: 0, truncated: false })),
    }).tools;
    expect(toolNamed(narrow, "execute").description).toContain("Prefer read_file for file work.");
  });

  it("with the in-state backend it is registered, hidden, and called anyway an error result", async () => {
    const { middleware, fails } = fsTools();
    expect(middleware.tools?.map((t: any) => t.name)).toContain("execute");
    expect((await visibleTools(middleware)).map((t) => t.name)).not.toContain("execute");
    expect(await fails("execute", { command: "ls" })).toBe(
      "Error: command execution is not available with this agent's file system.",
    );
  });

  it("returns the output then the exit code", async () => {
    const { ok, backend } = exec((command) => ({
      output: `ran ${command}\n`,
      exitCode: 3,
      truncated: false,
    }));
    expect(await ok("execute", { command: "make test" })).toBe("ran make test\n[Exit code 3]");
    expect((backend as ScriptedExecBackend).commands).toEqual(["make test"]);
  });

  it("says when the command was killed at the timeout and when output was capped", async () => {
    const killed = exec(() => ({
      output: "partial",
      exitCode: null,
      truncated: true,
      timedOut: true,
    }));
    expect(await killed.ok("execute", { command: "sleep 99" })).toBe(
      "partial\n[Killed at the timeout]\n[Output truncated at the size limit]",
    );
    const silent = exec(() => ({ output: "", exitCode: 0, truncated: false }));
    expect(await silent.ok("execute", { command: "true" })).toBe("[Exit code 0]");
  });

  it("a backend failure with no output is an error result", async () => {
    const { fails } = exec(() => ({
      output: "",
      exitCode: null,
      truncated: false,
      error: { code: "io", message: "could not start the shell" },
    }));
    expect(await fails("execute", { command: "ls" })).toBe("Error: could not start the shell");
  });
});
