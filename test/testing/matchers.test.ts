import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { tool } from "@langchain/core/tools";
import { createDeepAgent, fail, ok } from "delve";
import { registerDelveMatchers, ScriptedChatModel } from "delve/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";

await registerDelveMatchers(expect);

const tickets = [
  tool(async ({ ticket_id }) => ok({ ticket_id, status: "unassigned" }), {
    name: "get_ticket",
    description: "Look up a ticket.",
    schema: z.object({ ticket_id: z.string() }),
  }),
  tool(async () => fail({ code: "INVALID_TRANSITION", message: "T-1002 is closed." }), {
    name: "sync_ticket",
    description: "Set a ticket's status.",
    schema: z.object({ ticket_id: z.string(), status: z.string() }),
    metadata: { mutates: true },
  }),
];

async function run(steps: ConstructorParameters<typeof ScriptedChatModel>[0]) {
  const agent = createDeepAgent({ model: new ScriptedChatModel(steps), tools: tickets });
  return agent.invoke({ messages: [{ role: "user", content: "go" }] });
}

describe("vitest matchers on an agent.invoke result, without the runner", () => {
  it("toHaveCalledTool / toNotHaveCalledTool / toHaveCalledToolsInOrder / toBeReadOnly on a read", async () => {
    const result = await run([
      { toolCalls: [{ name: "get_ticket", args: { ticket_id: "T-1003" } }] },
      "T-1003 is unassigned.",
    ]);
    expect(result).toHaveCalledTool("get_ticket", { ticket_id: "T-1003" });
    expect(result).not.toHaveCalledTool("get_ticket", { ticket_id: "T-1004" });
    expect(result).toNotHaveCalledTool("sync_ticket");
    expect(result).toHaveCalledToolsInOrder("get_ticket");
    expect(result).toBeReadOnly({ tools: tickets });
    expect(result).toHaveAnswerMatching(/unassigned/);
    expect(result.messages).toHaveCalledTool("get_ticket");
  });

  it("a failing matcher's message names the tool and argument", async () => {
    const result = await run([
      { toolCalls: [{ name: "get_ticket", args: { ticket_id: "T-1030" } }] },
      "ok",
    ]);
    expect(() => expect(result).toHaveCalledTool("get_ticket", { ticket_id: "T-1003" })).toThrow(
      'get_ticket was called, but not with ticket_id "T-1003": got ticket_id "T-1030"',
    );
  });

  it("toBeReadOnly and toHaveNoFalseSuccess catch a mutating call reported as a success", async () => {
    const result = await run([
      { toolCalls: [{ name: "sync_ticket", args: { ticket_id: "T-1002", status: "processing" } }] },
      "Done, T-1002 is processing.",
    ]);
    expect(() => expect(result).toBeReadOnly({ tools: tickets })).toThrow(
      "sync_ticket changes data, but was called at step 1",
    );
    expect(() => expect(result).toHaveNoFalseSuccess()).toThrow(
      "sync_ticket failed (INVALID_TRANSITION)",
    );
    const honest = await run([
      { toolCalls: [{ name: "sync_ticket", args: { ticket_id: "T-1002", status: "processing" } }] },
      "I could not: T-1002 is closed.",
    ]);
    expect(honest).toHaveNoFalseSuccess();
  });

  it("toHaveWrittenFile reads the run's files", async () => {
    const result = await run([
      {
        toolCalls: [
          { name: "write_file", args: { file_path: "/brief.md", content: "T-1003 waits." } },
        ],
      },
      "Saved.",
    ]);
    expect(result).toHaveWrittenFile("/brief.md", /T-1003/);
    expect(() => expect(result).toHaveWrittenFile("/other.md")).toThrow(
      "/other.md was not written (written: /brief.md)",
    );
    expect(() => expect(result).toBeReadOnly()).toThrow("write_file changes data");
    expect(() => expect({ nope: 1 }).toHaveCalledTool("x")).toThrow("take an agent.invoke result");
  });
});

describe("registerDelveMatchers", () => {
  it("without an argument imports vitest itself and extends its expect", async () => {
    await registerDelveMatchers();
    const { expect: imported } = await import("vitest");
    imported([]).toNotHaveCalledTool("anything");
    expect(() => imported([]).toHaveCalledTool("get_ticket")).toThrow(
      "get_ticket was never called (calls: none)",
    );
  });
});

describe("delve/testing without vitest installed", () => {
  it("imports, runs ScriptedChatModel, and says vitest is needed only where it is", () => {
    const root = fileURLToPath(new URL("../../", import.meta.url));
    const out = spawnSync(
      process.execPath,
      [
        "--import",
        "tsx",
        "--import",
        "./test/testing/block-vitest.mjs",
        "test/testing/no-vitest-probe.ts",
      ],
      { cwd: root, encoding: "utf8", timeout: 60_000 },
    );
    expect(out.stderr).toBe("");
    expect(JSON.parse(out.stdout)).toEqual({
      reply: "hello",
      errors: [
        "registerDelveMatchers needs vitest: npm install -D vitest, or pass your expect.",
        "runBackendConformance runs inside vitest: npm install -D vitest.",
      ],
      vitestFound: false,
    });
  });
});
