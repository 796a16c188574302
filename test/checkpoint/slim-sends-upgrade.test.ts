// A thread paused inside a tool call keeps that call's Send in its checkpoint. Whatever the
// slim-Sends shim does when the thread is resumed (a later version may have to fall back and
// send the state as langchain does, here forced with DELVE_SLIM_TOOL_SENDS=off), the resumed
// call must get its arguments and the thread's state.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tool } from "@langchain/core/tools";
import { Command, interrupt } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { createDeepAgent } from "delve";
import { ScriptedChatModel } from "delve/testing";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { hasSlimToolSends } from "../../src/checkpoint/slim-tool-sends.js";

const dir = mkdtempSync(join(tmpdir(), "delve-slim-upgrade-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  delete process.env.DELVE_SLIM_TOOL_SENDS;
});

const note = `a long note ${"n".repeat(3000)}`;
// Asks a human, then reports its arguments and a file of the thread's state.
const ask = tool(
  async ({ question }: { question: string }, runtime: any) => {
    const answer = interrupt(`ok to file ${question.length} chars?`);
    const seed = runtime?.state?.files?.["/seed.md"]?.content;
    return `answer=${answer} question=${question.length} seed=${seed}`;
  },
  { name: "ask", description: "Ask a human.", schema: z.object({ question: z.string() }) },
);

function agentOn(file: string, slim: boolean, resuming: boolean) {
  if (slim) delete process.env.DELVE_SLIM_TOOL_SENDS;
  else process.env.DELVE_SLIM_TOOL_SENDS = "off";
  const agent = createDeepAgent({
    model: new ScriptedChatModel([
      ...(resuming ? [] : [{ toolCalls: [{ name: "ask", args: { question: note } }] }]),
      (messages) => `done: ${messages.at(-1)?.content}`,
    ]),
    tools: [ask],
    checkpointer: SqliteSaver.fromConnString(file),
  });
  expect(hasSlimToolSends(agent)).toBe(slim);
  return agent;
}

describe.each([
  ["paused with slim Sends, resumed with the shim off", true, false],
  ["paused with the shim off, resumed with slim Sends", false, true],
])("a tool call %s", (_name, pauseSlim, resumeSlim) => {
  it("runs with its arguments and the thread's state", async () => {
    const file = join(dir, `${pauseSlim}-${resumeSlim}.db`);
    const config = { configurable: { thread_id: "t" } };
    const paused: any = await agentOn(file, pauseSlim, false).invoke(
      { messages: [{ role: "user", content: "ask" }], files: { "/seed.md": "seeded" } },
      config,
    );
    expect(paused.__interrupt__?.[0]?.value).toBe(`ok to file ${note.length} chars?`);
    const out: any = await agentOn(file, resumeSlim, true).invoke(
      new Command({ resume: "yes" }) as any,
      config,
    );
    expect(out.messages.at(-1).content).toBe(
      `done: answer=yes question=${note.length} seed=seeded`,
    );
  });
});
