import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { harnessPerFile, runInProcess } from "../run/session-ops-harness.js";
import { ROOT } from "./delve-bin.js";

// ask_user through `delve run --ask-user` and `delve answer`: the real CLI in child
// processes, the real ChatOpenAI on the local fake, the workspace's real .delve/threads.db.
// Cases about `delve answer` start from a pause the engine makes in this process: the cases
// that test `delve run --ask-user` itself make theirs with the binary.

vi.setConfig({ testTimeout: 120_000 });

const h = harnessPerFile();

const OPENAI = ["--model", "openai:delve-unpriced-model"];
const ask = (args: Record<string, unknown>) => ({
  toolCalls: [{ name: "ask_user", args }],
});
// The ask_user result the model was sent in its last request.
const toolResults = () =>
  h.openai
    .accepted()
    .at(-1)
    .messages.filter((m: any) => m.role === "tool")
    .map((m: any) => m.content);

// A thread paused on ask_user(args), made by `delve run --ask-user --output stream-json`.
async function pausedByTheBinary(args: Record<string, unknown>) {
  const ws = h.workspace();
  h.openai.script([ask(args)]);
  const run = await h.delve(ws, [
    "run",
    "paint the fence",
    ...OPENAI,
    "--ask-user",
    "--output",
    "stream-json",
  ]);
  return { ws, run, events: run.events(), thread: run.events()[0].thread_id as string };
}

// The same pause, made by the engine in this process (what `delve run --ask-user` runs).
async function pausedOnQuestion(args: Record<string, unknown>) {
  const ws = h.workspace();
  h.openai.script([ask(args)]);
  const { thread, status } = await runInProcess(
    h,
    { workspace: ws, model: "openai:delve-unpriced-model", askUser: true },
    "paint the fence",
  );
  expect(status).toBe("paused");
  return { ws, thread };
}

describe("delve run --ask-user: a question pauses the run", () => {
  it("emits question_required, lists it in the result and in delve pending; exit 3; a choice it does not offer is refused and the question stays open", async () => {
    const { ws, run, events, thread } = await pausedByTheBinary({
      question: "Which colour?",
      choices: ["red", "blue"],
    });
    expect(run.code).toBe(3);
    const callId = events.find((e) => e.type === "tool_call" && e.tool === "ask_user").call_id;
    expect(events.filter((e) => e.type === "question_required")).toEqual([
      {
        v: 1,
        type: "question_required",
        thread_id: thread,
        call_id: callId,
        question: "Which colour?",
        choices: ["red", "blue"],
      },
    ]);
    expect(events.at(-1)).toMatchObject({
      type: "result",
      status: "paused",
      pending: [],
      questions: [{ call_id: callId, question: "Which colour?", choices: ["red", "blue"] }],
    });
    // The model was given ask_user because of --ask-user.
    expect(h.openai.accepted()[0].tools.map((t: any) => t.function.name)).toContain("ask_user");
    // Read-only on the pause, so at once: pending, a new task, choices the question refuses.
    const [listed, refused, wrong, two] = await Promise.all([
      h.delve(ws, ["pending", "--json"]),
      h.delve(ws, ["run", "other", "--thread", thread]),
      h.delve(ws, ["answer", thread, "--choice", "green"]),
      h.delve(ws, ["answer", thread, "--choice", "red", "--choice", "blue"]),
    ]);
    expect(JSON.parse(listed.stdout)).toEqual([
      {
        thread_id: thread,
        kind: "question",
        call_id: callId,
        question: "Which colour?",
        choices: ["red", "blue"],
      },
    ]);
    // A new task on the paused thread is refused with the way out.
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`delve answer ${thread}`);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain(
      '"green" is not a choice of "Which colour?"; the choices are: "red", "blue"',
    );
    expect(two.code).toBe(2);
    expect(two.stderr).toContain('"Which colour?" takes one answer; 2 were given');
    // The question stayed open through all of that.
    h.openai.script([{ text: "Painted it teal." }]);
    // A free-text answer is always accepted: the choices are suggestions.
    const own = await h.delve(ws, ["answer", thread, "teal, please", "--output", "stream-json"]);
    expect(own.code).toBe(0);
    expect(own.events().at(-1)).toMatchObject({ type: "result", status: "completed" });
    expect(toolResults()).toEqual(["The user answered: teal, please"]);
  });

  it("delve answer --choice resumes with the answer as ask_user's result, once; the thread keeps its ask_user tool", async () => {
    const { ws, thread } = await pausedOnQuestion({
      question: "Which colour?",
      choices: ["red", "blue"],
    });
    h.openai.script([{ text: "Painted it blue." }]);
    const answered = await h.delve(ws, ["answer", thread, "--choice", "blue"]);
    expect(answered.stderr).not.toContain("delve answer:");
    expect(answered.code).toBe(0);
    expect(answered.stdout).toBe("Painted it blue.\n");
    expect(toolResults()).toEqual(["The user answered: blue"]);
    expect(
      h.openai
        .accepted()
        .at(-1)
        .tools.map((t: any) => t.function.name),
    ).toContain("ask_user");
    const again = await h.delve(ws, ["answer", thread, "red"]);
    expect(again.code).toBe(4);
    expect(again.stderr).toContain("waits for no answer");
  });

  it("a multi-select question takes several --choice and text; the text mode prints how to answer", async () => {
    const ws = h.workspace();
    h.openai.script([
      ask({ question: "Toppings?", choices: ["ham", "olives", "basil"], multi_select: true }),
    ]);
    const run = await h.delve(ws, ["run", "pizza", ...OPENAI, "--ask-user"]);
    expect(run.code).toBe(3);
    const thread = /thread (\S+) \(new\)/.exec(run.stderr)![1]!;
    expect(run.stderr).toContain(
      'question: Toppings?\n  choices: "ham" | "olives" | "basil" (several allowed)',
    );
    expect(run.stderr).toContain(`answer: delve answer ${thread} "TEXT" or --choice "ham"`);
    h.openai.script([{ text: "Ordered." }]);
    const answered = await h.delve(ws, [
      "answer",
      thread,
      "extra cheese",
      "--choice",
      "ham",
      "--choice",
      "basil",
    ]);
    expect(answered.code).toBe(0);
    expect(toolResults()).toEqual(["The user chose: ham, basil, extra cheese"]);
    // The thread remembers --ask-user: `delve answer` needs no flag to keep the tool.
    const tools = h.openai
      .accepted()
      .at(-1)
      .tools.map((t: any) => t.function.name);
    expect(tools).toContain("ask_user");
  });
});

describe("several questions at once (parallel subagents)", () => {
  it("each is answered with --call; the run pauses again on the rest, then ends", async () => {
    const ws = h.workspace();
    const task = (description: string) => ({
      name: "task",
      args: { description, subagent_type: "general-purpose" },
    });
    h.openai.script([
      { toolCalls: [task("ask one"), task("ask two")] },
      ask({ question: "First?" }),
      ask({ question: "Second?" }),
    ]);
    const run = await h.delve(ws, [
      "run",
      "two asks",
      ...OPENAI,
      "--ask-user",
      "--output",
      "stream-json",
    ]);
    expect(run.code).toBe(3);
    const thread = run.events()[0].thread_id;
    const asked = run.events().filter((e) => e.type === "question_required");
    expect(asked.map((q) => q.question).sort()).toEqual(["First?", "Second?"]);
    const first = asked.find((q) => q.question === "First?");
    const second = asked.find((q) => q.question === "Second?");

    const which = await h.delve(ws, ["answer", thread, "one"]);
    expect(which.code).toBe(2);
    expect(which.stderr).toContain(
      "2 questions wait (parallel subagents); answer each with --call:",
    );
    expect(which.stderr).toContain(`${first.call_id} "First?"`);

    h.openai.script([{ text: "sub one done" }]);
    const one = await h.delve(ws, [
      "answer",
      thread,
      "one",
      "--call",
      first.call_id,
      "--output",
      "stream-json",
    ]);
    expect(one.code).toBe(3);
    expect(toolResults()).toEqual(["The user answered: one"]);
    expect(one.events().at(-1)).toMatchObject({
      status: "paused",
      questions: [{ call_id: second.call_id, question: "Second?" }],
    });

    h.openai.script([{ text: "sub two done" }, { text: "all done" }]);
    const two = await h.delve(ws, ["answer", thread, "two"]);
    expect(two.code).toBe(0);
    expect(two.stdout).toBe("all done\n");
    expect(toolResults().sort()).toEqual(["sub one done", "sub two done"]);
  });
});

describe("answers are exactly once across processes", () => {
  it("two delve answer processes at once: one continues the run, the other exits 4", async () => {
    const { ws, thread } = await pausedOnQuestion({ question: "Ship it?" });
    h.openai.script([{ text: "shipped" }, { text: "shipped twice" }]);
    const before = h.openai.accepted().length;
    const [a, b] = await Promise.all([
      h.delve(ws, ["answer", thread, "yes"]),
      h.delve(ws, ["answer", thread, "no"]),
    ]);
    expect([a.code, b.code].sort()).toEqual([0, 4]);
    const loser = a.code === 4 ? a : b;
    expect(loser.stderr).toMatch(/already decided|waits for no answer/);
    expect(h.openai.accepted().length - before).toBe(1);
  });

  it("two engine processes holding the same pause answer at the same moment: one wins, the other gets AlreadyDecidedError", async () => {
    const { ws, thread } = await pausedOnQuestion({ question: "Ship it?" });
    h.openai.script([{ text: "shipped" }, { text: "shipped twice" }]);
    const before = h.openai.accepted().length;
    const go = path.join(ws, "go");
    const script = path.join(ROOT, "test/run/answer-race-process.ts");
    const racers = ["yes", "no"].map((answer) => {
      const child = spawn(
        process.execPath,
        ["--import", import.meta.resolve("tsx"), script, ws, thread, answer, go],
        { cwd: ws, env: h.env(), stdio: ["ignore", "pipe", "pipe"] },
      );
      let out = "";
      let err = "";
      child.stdout.on("data", (d) => {
        out += d;
      });
      child.stderr.on("data", (d) => {
        err += d;
      });
      const ready = new Promise<void>((resolve, reject) => {
        child.stdout.on("data", () => out.includes('"ready":1') && resolve());
        child.on("close", () => reject(new Error(`racer exited before ready: ${out}${err}`)));
      });
      const done = new Promise<string[]>((resolve) =>
        child.on("close", () => resolve(out.trim().split("\n"))),
      );
      return { ready, done };
    });
    await Promise.all(racers.map((r) => r.ready));
    fs.writeFileSync(go, "");
    const outcomes = (await Promise.all(racers.map((r) => r.done))).map(
      (lines) => JSON.parse(lines.at(-1)!).outcome,
    );
    expect(outcomes.sort()).toEqual(["already-decided", "won"]);
    expect(h.openai.accepted().length - before).toBe(1);
    const last = toolResults();
    expect(last).toHaveLength(1);
    expect(last[0]).toMatch(/^The user answered: (yes|no)$/);
  });
});
