import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { harnessPerFile, runInProcess } from "../run/session-ops-harness.js";

// `delve run` end to end: the real CLI in a child process, the real provider classes on the
// local fakes, a real workspace on disk and its real .delve/threads.db.

// Each test spawns a few node processes that load LangChain: slow on a shared machine.
vi.setConfig({ testTimeout: 120_000 });

const h = harnessPerFile();

const OPENAI = ["--model", "openai:delve-unpriced-model"];

describe("delve run --output stream-json", () => {
  it("streams every event kind, v1, thread first and result last; the file is on disk; exit 0", async () => {
    const ws = h.workspace({ "notes.txt": "one\n" });
    h.openai.script([
      {
        toolCalls: [
          { name: "write_file", args: { file_path: "/hello.txt", content: "hi\n" } },
          {
            name: "edit_file",
            args: { file_path: "/notes.txt", old_string: "one", new_string: "two" },
          },
          { name: "task", args: { description: "say sub", subagent_type: "general-purpose" } },
        ],
      },
      { text: "sub done" },
      { text: "all done" },
    ]);
    const seen = h.openai.accepted().length;
    const run = await h.delve(ws, [
      "run",
      "make hello",
      ...OPENAI,
      "--approval",
      "yolo",
      "--output",
      "stream-json",
    ]);
    expect(run.stderr).toContain("approval yolo");
    // Without --ask-user neither the agent nor its subagent has the ask_user tool.
    const requests = h.openai.accepted().slice(seen);
    expect(requests).toHaveLength(3);
    for (const request of requests) {
      expect((request.tools ?? []).map((t: any) => t.function.name)).not.toContain("ask_user");
    }
    const events = run.events();
    expect(events.every((e) => e.v === 1)).toBe(true);
    expect(events[0]).toMatchObject({
      type: "thread",
      resumed: false,
      model: "openai:delve-unpriced-model",
      approval: "yolo",
      workspace: ws,
    });
    const types = new Set(events.map((e) => e.type));
    for (const t of [
      "thread",
      "text",
      "tool_call",
      "tool_result",
      "file_changed",
      "usage",
      "subagent",
      "result",
    ]) {
      expect(types, t).toContain(t);
    }
    const changes = events.filter((e) => e.type === "file_changed");
    expect(changes.map((c) => [c.path, c.op])).toEqual(
      expect.arrayContaining([
        ["hello.txt", "create"],
        ["notes.txt", "edit"],
      ]),
    );
    expect(changes.find((c) => c.path === "notes.txt").diff).toContain("-one\n+two");
    expect(events.filter((e) => e.type === "subagent").map((e) => [e.phase, e.name])).toEqual([
      ["start", "general-purpose"],
      ["end", "general-purpose"],
    ]);
    expect(events.find((e) => e.type === "usage")).toMatchObject({
      model: "openai:delve-unpriced-model",
      input: 10,
      output: 5,
      cost_usd: null,
    });
    const result = events.at(-1);
    expect(result).toMatchObject({
      type: "result",
      status: "completed",
      answer: "all done",
      turns: 2,
      tool_calls: 3,
    });
    expect(result.usage.input).toBeGreaterThanOrEqual(20);
    expect(fs.readFileSync(path.join(ws, "hello.txt"), "utf8")).toBe("hi\n");
    expect(fs.readFileSync(path.join(ws, "notes.txt"), "utf8")).toBe("two\n");
    expect(run.code).toBe(0);
  });

  it("text mode: the answer alone on stdout, progress on stderr whose first line names the thread; the task can come from stdin", async () => {
    const ws = h.workspace();
    h.anthropic.script([{ text: "42" }]);
    const run = await h.delve(ws, ["run", "-", "--model", "anthropic:claude-sonnet-4-5"], {
      input: "what is six times seven?\n",
    });
    expect(run.stdout).toBe("42\n");
    const first = run.stderr.split("\n").find((l) => !l.startsWith("delve:"));
    expect(first).toMatch(/^thread [0-9a-f-]{36} \(new\) · anthropic:claude-sonnet-4-5/);
    expect(h.anthropic.accepted().at(-1).messages[0].content).toContain("six times seven");
    expect(run.code).toBe(0);
    // json: only the result object.
    h.anthropic.script([{ text: "again 42" }]);
    const json = await h.delve(ws, ["run", "-c", "once more", "--output", "json"]);
    const result = JSON.parse(json.stdout);
    expect(result).toMatchObject({ status: "completed", answer: "again 42" });
    expect(result.type).toBeUndefined();
    expect(run.stderr).toContain(result.thread_id);
  });

  it("a provider error fails the run: status failed, exit 1", async () => {
    const ws = h.workspace();
    h.openai.script([{ fail: "The model `gpt-4o-mini` does not exist" }]);
    const run = await h.delve(ws, ["run", "hi", ...OPENAI, "--output", "json"]);
    expect(JSON.parse(run.stdout)).toMatchObject({
      status: "failed",
      error: expect.stringContaining("does not exist"),
    });
    expect(run.code).toBe(1);
  });
});

describe("approvals: pause, pending, approve exactly once", () => {
  it("an execute in ask mode pauses (exit 3); two concurrent approves: one runs it once, the other is told already decided (exit 4)", async () => {
    const ws = h.workspace();
    h.openai.script([
      { toolCalls: [{ name: "execute", args: { command: "echo ran >> log.txt" } }] },
    ]);
    const paused = await h.delve(ws, ["run", "log it", ...OPENAI, "--output", "stream-json"]);
    expect(paused.code).toBe(3);
    const events = paused.events();
    const required = events.find((e) => e.type === "approval_required");
    const thread = events[0].thread_id;
    expect(required).toMatchObject({
      thread_id: thread,
      tool: "execute",
      args: { command: "echo ran >> log.txt" },
      decisions: ["approve", "edit", "reject"],
    });
    expect(required.call_id).toBe(events.find((e) => e.type === "tool_call").call_id);
    expect(events.at(-1)).toMatchObject({ type: "result", status: "paused" });
    expect(fs.existsSync(path.join(ws, "log.txt"))).toBe(false);

    const pending = await h.delve(ws, ["pending", "--json"]);
    expect(JSON.parse(pending.stdout)).toEqual([
      expect.objectContaining({ thread_id: thread, call_id: required.call_id, tool: "execute" }),
    ]);

    h.openai.script([{ text: "logged" }]);
    const [a, b] = await Promise.all([
      h.delve(ws, ["approve", thread]),
      h.delve(ws, ["approve", thread]),
    ]);
    const codes = [a.code, b.code].sort();
    expect(codes).toEqual([0, 4]);
    const winner = a.code === 0 ? a : b;
    const loser = a.code === 0 ? b : a;
    expect(winner.stdout).toBe("logged\n");
    expect(loser.stderr).toMatch(/already decided|waits for no approval/);
    expect(fs.readFileSync(path.join(ws, "log.txt"), "utf8")).toBe("ran\n");
    expect(JSON.parse((await h.delve(ws, ["pending", "--json"])).stdout)).toEqual([]);
  });

  it("approve --reject --reason tells the model and runs nothing; --edit runs the edited arguments", async () => {
    const ws = h.workspace();
    h.openai.script([
      { toolCalls: [{ name: "write_file", args: { file_path: "/a.txt", content: "bad\n" } }] },
    ]);
    // The pause comes from the engine in this process (the case above runs it with the binary).
    const { thread, status } = await runInProcess(h, { workspace: ws, model: OPENAI[1]! }, "write");
    expect(status).toBe("paused");
    h.openai.script([
      { toolCalls: [{ name: "write_file", args: { file_path: "/b.txt", content: "bad\n" } }] },
    ]);
    const rejected = await h.delve(ws, [
      "approve",
      thread,
      "--reject",
      "--reason",
      "not that file",
      "--output",
      "json",
    ]);
    expect(rejected.code).toBe(3);
    const rejectedTurn = h.openai.accepted().at(-1).messages.at(-1);
    expect(rejectedTurn).toMatchObject({
      role: "tool",
      content: "Rejected by a reviewer; the call did not run. Reviewer's note: not that file",
    });
    expect(fs.existsSync(path.join(ws, "a.txt"))).toBe(false);
    h.openai.script([{ text: "written" }]);
    const edited = await h.delve(ws, [
      "approve",
      thread,
      "--edit",
      '{"file_path":"/b.txt","content":"good\\n"}',
    ]);
    expect(edited.code).toBe(0);
    expect(fs.readFileSync(path.join(ws, "b.txt"), "utf8")).toBe("good\n");
  });
});

describe("approval rules by argument", () => {
  const RULES = {
    rules: { allow: ["execute(git status*)", "execute(echo *)"], deny: ["execute(rm -rf*)"] },
  };

  it("an allowed command runs without asking, a denied one is refused to the model, and `git status; touch x` is not `git status*`: it pauses", async () => {
    const ws = h.workspace({ ".delve/config.json": JSON.stringify(RULES), "keep.txt": "keep\n" });
    h.openai.script([
      {
        toolCalls: [
          { name: "execute", args: { command: "echo allowed > ok.txt" }, id: "allowed" },
          { name: "execute", args: { command: "rm -rf keep.txt" }, id: "denied" },
        ],
      },
      {
        toolCalls: [
          { name: "execute", args: { command: "git status; rm -rf keep.txt" }, id: "chained" },
        ],
      },
      {
        toolCalls: [
          { name: "execute", args: { command: "git status; touch pwned.txt" }, id: "smuggled" },
        ],
      },
    ]);
    const run = await h.delve(ws, ["run", "clean up", ...OPENAI, "--output", "stream-json"]);
    const events = run.events();
    const result = (id: string) => events.find((e) => e.type === "tool_result" && e.call_id === id);
    expect(result("allowed")).toMatchObject({ status: "success" });
    expect(fs.readFileSync(path.join(ws, "ok.txt"), "utf8")).toBe("allowed\n");
    expect(result("denied")).toMatchObject({
      status: "error",
      output: expect.stringContaining("execute(rm -rf*)"),
    });
    expect(result("chained")).toMatchObject({
      status: "error",
      output: expect.stringContaining("not allowed"),
    });
    const required = events.filter((e) => e.type === "approval_required");
    expect(required.map((e) => [e.call_id, e.args.command])).toEqual([
      ["smuggled", "git status; touch pwned.txt"],
    ]);
    expect(run.code).toBe(3);
    expect(fs.readFileSync(path.join(ws, "keep.txt"), "utf8")).toBe("keep\n");
    expect(fs.existsSync(path.join(ws, "pwned.txt"))).toBe(false);
  });

  it("hostile spellings of a denied or unlisted command never pass an allow rule", async () => {
    const hostile = [
      "echo hi && rm -rf keep.txt",
      "echo hi | sh -c 'rm -rf keep.txt'",
      "echo $(rm -rf keep.txt)",
      "echo `rm -rf keep.txt`",
      "(rm -rf keep.txt)",
      "echo hi\nrm -rf keep.txt",
    ];
    const ws = h.workspace({ ".delve/config.json": JSON.stringify(RULES), "keep.txt": "keep\n" });
    h.openai.script([
      { toolCalls: hostile.map((command) => ({ name: "execute", args: { command } })) },
      { text: "gave up" },
    ]);
    const run = await h.delve(ws, [
      "run",
      "try",
      ...OPENAI,
      "--approval",
      "edits",
      "--output",
      "stream-json",
    ]);
    const events = run.events();
    const ranOk = events.filter((e) => e.type === "tool_result" && e.status === "success");
    expect(ranOk).toEqual([]);
    // Each one was stopped: refused to the model, or waiting for a human.
    const stopped = events.filter(
      (e) => (e.type === "tool_result" && e.status === "error") || e.type === "approval_required",
    );
    expect(new Set(stopped.map((e) => e.call_id)).size).toBe(hostile.length);
    expect(fs.readFileSync(path.join(ws, "keep.txt"), "utf8")).toBe("keep\n");
    h.openai.script([]);
  });
});

describe("limits, kill -9 and resume", () => {
  it("--max-turns ends with status limit and exit 124, and -c continues the same thread", async () => {
    const ws = h.workspace();
    h.openai.script([
      { toolCalls: [{ name: "ls", args: { path: "/" } }] },
      { toolCalls: [{ name: "ls", args: { path: "/" } }] },
      { text: "finished" },
    ]);
    const limited = await h.delve(ws, [
      "run",
      "look",
      ...OPENAI,
      "--max-turns",
      "1",
      "--output",
      "json",
    ]);
    const result = JSON.parse(limited.stdout);
    expect(result).toMatchObject({ status: "limit", limit: "max_turns", turns: 1 });
    expect(result.error).toContain("--max-turns 1");
    expect(limited.code).toBe(124);
    const resumed = await h.delve(ws, ["run", "-c", "--output", "json"]);
    expect(JSON.parse(resumed.stdout)).toMatchObject({
      thread_id: result.thread_id,
      status: "completed",
      answer: "finished",
    });
  });

  it("--timeout stops a run that takes too long (exit 124, limit timeout)", async () => {
    const ws = h.workspace();
    h.openai.script([
      { toolCalls: [{ name: "execute", args: { command: "sleep 20" } }] },
      { text: "never" },
    ]);
    const started = Date.now();
    const run = await h.delve(ws, [
      "run",
      "wait",
      ...OPENAI,
      "--approval",
      "yolo",
      "--timeout",
      "2",
      "--output",
      "json",
    ]);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: "limit", limit: "timeout" });
    expect(run.code).toBe(124);
    h.openai.script([]);
  });

  it("--max-cost with --prices stops once the run cost that much", async () => {
    const ws = h.workspace({
      "prices.json": JSON.stringify({
        "openai:delve-unpriced-model": { input: 100_000, output: 0 },
      }),
    });
    h.openai.script([{ toolCalls: [{ name: "ls", args: { path: "/" } }] }, { text: "never" }]);
    const run = await h.delve(ws, [
      "run",
      "look",
      ...OPENAI,
      "--prices",
      "prices.json",
      "--max-cost",
      "0.5",
      "--output",
      "json",
    ]);
    expect(JSON.parse(run.stdout)).toMatchObject({
      status: "limit",
      limit: "max_cost",
      cost_usd: 1,
    });
    expect(run.code).toBe(124);
    h.openai.script([]);
  });

  it("a run killed with SIGKILL resumes with -c from its last checkpoint, and no recorded tool call runs twice", async () => {
    const ws = h.workspace();
    h.openai.script([
      {
        toolCalls: [
          { name: "execute", args: { command: "echo once >> count.txt" } },
          { name: "execute", args: { command: "sleep 4; echo slow >> slow.txt" } },
        ],
      },
      { text: "resumed fine" },
    ]);
    const { child, done } = h.start(ws, ["run", "count", ...OPENAI, "--approval", "yolo"]);
    child.stdin!.end();
    const deadline = Date.now() + 20_000;
    // Killed once the fast call is recorded (its result is checkpointed with the step's writes).
    while (!fs.existsSync(path.join(ws, "count.txt")) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, 700));
    child.kill("SIGKILL");
    expect((await done).code).toBe(null);
    expect(fs.existsSync(path.join(ws, "slow.txt"))).toBe(false);
    const resumed = await h.delve(ws, ["run", "-c", "--output", "json"]);
    expect(JSON.parse(resumed.stdout)).toMatchObject({
      status: "completed",
      answer: "resumed fine",
    });
    expect(fs.readFileSync(path.join(ws, "count.txt"), "utf8")).toBe("once\n");
    // The unrecorded call runs again (on the host, without bubblewrap, the killed one may finish too).
    expect(fs.readFileSync(path.join(ws, "slow.txt"), "utf8")).toMatch(/^(slow\n){1,2}$/);
  });
});

describe("configuration and usage errors exit 2", () => {
  it("no model and no key: exit 2 naming the fix", async () => {
    const ws = h.workspace();
    const run = await h.delve(ws, ["run", "hi"], {
      env: h.env({ OPENAI_API_KEY: undefined, ANTHROPIC_API_KEY: undefined }),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--model|DELVE_MODEL|API_KEY/);
  });

  it("a bad config file: exit 2 naming the file and the key", async () => {
    const ws = h.workspace({ ".delve/config.json": JSON.stringify({ approvl: "yolo" }) });
    const run = await h.delve(ws, ["run", "hi", ...OPENAI]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(path.join(ws, ".delve", "config.json"));
    expect(run.stderr).toContain("approvl");
  });

  it("an unknown flag or a bad value: exit 2, the flag named and the nearest valid one suggested", async () => {
    const ws = h.workspace();
    const [flag, value, command] = await Promise.all([
      h.delve(ws, ["run", "hi", "--max-turn", "3"]),
      h.delve(ws, ["run", "hi", "--output", "jsonl"]),
      h.delve(ws, ["thread", "list"]),
    ]);
    expect([flag.code, flag.stderr.trim()]).toEqual([
      2,
      "delve run: unknown flag --max-turn for delve run; did you mean --max-turns. Run delve run --help.",
    ]);
    expect(value.code).toBe(2);
    expect(value.stderr).toContain('--output takes text, json, stream-json; got "jsonl"');
    expect(command.code).toBe(2);
    expect(command.stderr).toContain("did you mean threads");
  });
});
