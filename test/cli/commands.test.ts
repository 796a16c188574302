import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { harnessPerFile, runInProcess } from "../run/session-ops-harness.js";
import { ROOT } from "./delve-bin.js";

// The commands around `delve run`, as a user runs them: threads, doctor, lint, surface,
// --agent modules in TypeScript, cassettes, help and version.

// Each test spawns a few node processes that load LangChain: slow on a shared machine.
vi.setConfig({ testTimeout: 120_000 });

const h = harnessPerFile();

const FIXTURE = path.join(ROOT, "test/cli/fixtures/orders-agent.ts");

describe("delve threads", () => {
  it("list, show and delete read the workspace's threads database", async () => {
    const ws = h.workspace();
    h.openai.script([{ text: "first answer" }]);
    // The thread comes from the engine in this process: `delve run` has its own tests.
    const { thread: id } = await runInProcess(
      h,
      { workspace: ws, model: "openai:delve-unpriced-model" },
      "first task",
    );
    expect(fs.existsSync(path.join(ws, ".delve", "threads.db"))).toBe(true);
    const [list, show, text] = await Promise.all([
      h.delve(ws, ["threads", "list", "--json"]),
      h.delve(ws, ["threads", "show", id, "--json"]),
      h.delve(ws, ["threads", "list"]),
    ]);
    expect(JSON.parse(list.stdout)).toEqual([
      expect.objectContaining({
        id,
        title: "first task",
        settings: expect.objectContaining({
          model: "openai:delve-unpriced-model",
          approval: "ask",
        }),
      }),
    ]);
    expect(text.stdout).toContain(`${id}  `);
    const shown = JSON.parse(show.stdout);
    expect(shown.messages.map((m: any) => [m.role, m.text])).toEqual([
      ["human", "first task"],
      ["ai", "first answer"],
    ]);
    expect(shown.usage).toMatchObject({ input: 10, output: 5 });
    expect(shown.pending).toEqual([]);
    const deleted = await h.delve(ws, ["threads", "delete", id]);
    expect(deleted.code).toBe(0);
    const [after, missing] = await Promise.all([
      h.delve(ws, ["threads", "list", "--json"]),
      h.delve(ws, ["threads", "show", id]),
    ]);
    expect(JSON.parse(after.stdout)).toEqual([]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`no thread ${id}`);
  });
});

describe("--agent MODULE, surface and lint on a TypeScript module", () => {
  it("run --agent loads a .ts module whose default export is a function returning options; its gate pauses the run", async () => {
    const ws = h.workspace();
    h.openai.script([{ toolCalls: [{ name: "cancel_order", args: { id: "ORD-1" } }] }]);
    const run = await h.delve(ws, [
      "run",
      "cancel ORD-1",
      "--model",
      "openai:delve-unpriced-model",
      "--agent",
      FIXTURE,
      "--output",
      "stream-json",
    ]);
    expect(run.code).toBe(3);
    const required = run.events().find((e) => e.type === "approval_required");
    expect(required).toMatchObject({ tool: "cancel_order", args: { id: "ORD-1" } });
    expect(JSON.stringify(h.openai.accepted().at(-1).messages[0].content)).toContain(
      "You answer questions about orders.",
    );
    // The thread remembers its agent module: approve needs no --agent.
    h.openai.script([{ text: "cancelled" }]);
    const approved = await h.delve(ws, ["approve", required.thread_id]);
    expect([approved.code, approved.stdout]).toEqual([0, "cancelled\n"]);
  });

  it("surface marks the tools that need approval; lint reviews a module's tools", async () => {
    const ws = h.workspace();
    const [surface, lint] = await Promise.all([
      h.delve(ws, ["surface", FIXTURE, "--export", "agent"]),
      h.delve(ws, ["lint", FIXTURE, "--export", "tools", "--json"]),
    ]);
    expect(surface.stdout).toMatch(/cancel_order\s+user\s+\d+ chars ~\d+ tokens {2}needs approval/);
    expect(surface.stdout).toMatch(/get_order\s+user\s+\d+ chars ~\d+ tokens\n/);
    expect(surface.code).toBe(0);
    expect(Array.isArray(JSON.parse(lint.stdout))).toBe(true);
    expect([0, 1]).toContain(lint.code);
  });
});

describe("cassettes: --record then --replay offline", () => {
  // The execute tool names the workspace's host path without a sandbox: replay in the same one.
  it("a recorded run replays with no provider and no key", async () => {
    const ws = h.workspace();
    const cassette = path.join(h.workspace(), "run.cassette.json");
    h.openai.script([
      { toolCalls: [{ name: "ls", args: { path: "/" } }] },
      { text: "nothing here" },
    ]);
    const recorded = await h.delve(ws, [
      "run",
      "what is here?",
      "--model",
      "openai:delve-unpriced-model",
      "--record",
      cassette,
      "--sandbox",
      "none",
      "--output",
      "json",
    ]);
    expect(JSON.parse(recorded.stdout)).toMatchObject({
      status: "completed",
      answer: "nothing here",
    });
    const before = h.openai.requests.length;
    const replayed = await h.delve(
      ws,
      ["run", "what is here?", "--replay", cassette, "--sandbox", "none", "--output", "json"],
      {
        env: h.env({
          OPENAI_API_KEY: undefined,
          ANTHROPIC_API_KEY: undefined,
          OPENAI_BASE_URL: "http://127.0.0.1:9",
        }),
      },
    );
    expect(JSON.parse(replayed.stdout), replayed.stdout).toMatchObject({
      status: "completed",
      answer: "nothing here",
    });
    expect(h.openai.requests.length).toBe(before);
  });
});

describe("doctor, help and version", () => {
  it("doctor prints one actionable line per fact; --help lists every command; --version prints the version", async () => {
    const ws = h.workspace();
    const [doctor, help, runHelp, version] = await Promise.all([
      h.delve(ws, ["doctor"]),
      h.delve(ws, ["--help"]),
      h.delve(ws, ["run", "--help"]),
      h.delve(ws, ["--version"]),
    ]);
    expect(doctor.code).toBe(0);
    expect(doctor.stdout).toMatch(/sandbox/);
    expect(doctor.stdout).toMatch(/threads/i);
    for (const c of ["run", "threads", "pending", "approve", "doctor", "lint", "surface", "eval"]) {
      expect(help.stdout).toContain(`delve ${c}`);
    }
    for (const f of [
      "--cwd",
      "--model",
      "--agent",
      "--sandbox",
      "--mcp",
      "--thread",
      "--continue",
      "--approval",
      "--output",
      "--max-turns",
      "--timeout",
      "--max-cost",
      "--prices",
      "--replay",
    ]) {
      expect(runHelp.stdout).toContain(f);
    }
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
    expect(version.stdout.trim()).toBe(pkg.version);
  });
});
