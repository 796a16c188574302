// What a page states as behaviour, checked against the behaviour: each test reads the claim
// from the page (so rewording it without keeping it true fails) and then runs it.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HumanMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { createDeepAgent, InMemoryBackend, LocalShellBackend } from "delve";
import { ScriptedChatModel } from "delve/testing";
import { afterAll, describe, expect, it } from "vitest";
import { appendTranscript } from "../../src/context/summarization/transcript-file.js";
import { orderTools, resultFor, resume, thread, user } from "../approval/helpers.js";
import { outsideFences, readDoc } from "./markdown.js";

/** A page's prose with line breaks folded, so a claim may wrap. */
const prose = (page: string) => outsideFences(readDoc(page)).replace(/\s+/g, " ");

/** The backticked code spans of a page's prose. */
const spans = (page: string) => [...prose(page).matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("docs/approval.md", () => {
  const gated = (model: ScriptedChatModel) => {
    const { tools, ran } = orderTools();
    const interruptOn = { delete_order: true, refund_order: true };
    return {
      ran,
      agent: createDeepAgent({ model, tools, interruptOn, checkpointer: new MemorySaver() }),
    };
  };

  it("ungated calls of a paused turn wait, and run on the resume", async () => {
    expect(prose("docs/approval.md")).toContain(
      "the ungated calls of that turn wait too, and run on the resume with the approved ones",
    );
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          { name: "get_order", args: { order_id: "ORD-1" }, id: "g1" },
          { name: "delete_order", args: { order_id: "ORD-1" }, id: "d1" },
        ],
      },
      "Done.",
    ]);
    const { agent, ran } = gated(model);
    await agent.invoke(user("look up and delete"), thread("doc-wait"));
    expect(ran).toEqual([]);
    await agent.invoke(resume([{ type: "approve" }]), thread("doc-wait"));
    expect(ran.map((r) => r.tool).sort()).toEqual(["delete_order", "get_order"]);
  });

  it("the texts it quotes for an edit and a rejection are what the model reads", async () => {
    const quoted = spans("docs/approval.md");
    const edited = quoted.find((s) => s.startsWith("A reviewer changed this call"))!;
    const rejected = quoted.find((s) => s.startsWith("Rejected by a reviewer"))!;
    const note = quoted.find((s) => s.startsWith("Reviewer's note: "))!;
    expect(edited).toBe("A reviewer changed this call before it ran: amount 120 -> 40.");
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          { name: "refund_order", args: { order_id: "ORD-1", amount: 120 }, id: "r1" },
          { name: "delete_order", args: { order_id: "ORD-2" }, id: "d1" },
          { name: "delete_order", args: { order_id: "ORD-3" }, id: "d2" },
        ],
      },
      "Done.",
    ]);
    const { agent } = gated(model);
    await agent.invoke(user("refund and delete"), thread("doc-texts"));
    const out = await agent.invoke(
      resume([
        {
          type: "edit",
          editedAction: { name: "refund_order", args: { order_id: "ORD-1", amount: 40 } },
        },
        { type: "reject" },
        { type: "reject", message: "Open dispute." },
      ]),
      thread("doc-texts"),
    );
    expect(String(resultFor(out, "r1")!.content).startsWith(`${edited}\n\n`)).toBe(true);
    expect(resultFor(out, "d1")!.content).toBe(rejected);
    expect(resultFor(out, "d2")!.content).toBe(
      `${rejected} ${note.replace("<message>", "Open dispute.")}`,
    );
  });
});

describe("docs/filesystem.md", () => {
  it("LocalShellBackend.execute called directly refuses a NUL byte and an oversized command, running nothing", async () => {
    expect(prose("docs/filesystem.md")).toMatch(
      /`LocalShellBackend\.execute` and `SandboxBackend\.execute` called directly refuse it too.*code `unsupported` for a NUL byte, `too_large` for the size/,
    );
    const rootDir = mkdtempSync(join(tmpdir(), "delve-doc-facts-"));
    dirs.push(rootDir);
    const backend = new LocalShellBackend({ rootDir });
    const nul = await backend.execute("touch made\0here");
    expect(nul.error?.code).toBe("unsupported");
    expect(nul.error?.message).toContain("NUL byte");
    const big = await backend.execute(`touch made; # ${"x".repeat(100_001)}`);
    expect(big.error?.code).toBe("too_large");
    expect(big.error?.message).toMatch(/over the 100 KB limit/);
    expect(existsSync(join(rootDir, "made"))).toBe(false);
  });
});

describe("docs/context.md", () => {
  it("the first summary's transcript is <thread>.md, later ones <thread>.part-N.md", async () => {
    const text = prose("docs/context.md");
    expect(text).toContain("`/conversation_history/<thread>.md` (the first summary");
    expect(text).toContain("`<thread>.part-2.md`, `<thread>.part-3.md`");
    const backend = new InMemoryBackend();
    const path = "/conversation_history/t-9.md";
    const written = [];
    for (const batch of ["one", "two", "three"]) {
      written.push(await appendTranscript(backend, path, [new HumanMessage(batch)]));
    }
    expect(written).toEqual(
      ["<thread>.md", "<thread>.part-2.md", "<thread>.part-3.md"].map((name) => ({
        path: `/conversation_history/${name.replace("<thread>", "t-9")}`,
      })),
    );
  });
});

describe("docs/agent.md", () => {
  it("says how to drop the built-in file tools and task, with a sample that does", async () => {
    const text = prose("docs/agent.md");
    expect(text).toContain("Only your own tools");
    expect(readDoc("docs/agent.md")).toContain("// docs/examples/agent-business-tools.ts");
    const { agent } = await import("../../docs/examples/agent-business-tools.js");
    const { inspectSurface } = await import("delve");
    const report = await inspectSurface(agent);
    expect(report.visible).toEqual(["get_order"]);
    expect(report.systemPrompt).not.toMatch(/read_file|\btask\b/);
  });
});
