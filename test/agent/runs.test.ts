import { ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { Command, interrupt, MemorySaver } from "@langchain/langgraph";
import { createDeepAgent } from "delve";
import { ScriptedChatModel } from "delve/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { getTicketTool } from "../helpers/tickets.js";

const user = (content: string) => ({ messages: [{ role: "user" as const, content }] });
const toolMessages = (out: { messages: any[] }) =>
  out.messages.filter((m) => ToolMessage.isInstance(m)) as ToolMessage[];

class TicketSystemDown extends Error {}
const flaky = (error: Error) =>
  tool(
    async () => {
      throw error;
    },
    {
      name: "update_ticket",
      description: "Update a ticket.",
      schema: z.object({ id: z.string() }),
    },
  );
const callsUpdate = () =>
  new ScriptedChatModel([{ toolCalls: [{ name: "update_ticket", args: { id: "T-1" } }] }, "ok"]);

describe("tool failures never crash a run", () => {
  it("a tool that throws becomes an error tool message and the run goes on", async () => {
    const model = callsUpdate();
    const agent = createDeepAgent({ model, tools: [flaky(new Error("CRM timed out"))] });
    const out = await agent.invoke(user("update it"));
    const [result] = toolMessages(out);
    expect(result!.status).toBe("error");
    expect(result!.content).toMatch(/update_ticket failed: CRM timed out/);
    expect(out.messages.at(-1)!.content).toBe("ok");
  });

  it("toolErrors: false rethrows the tool's exception", async () => {
    const agent = createDeepAgent({
      model: callsUpdate(),
      tools: [flaky(new Error("CRM timed out"))],
      toolErrors: false,
    });
    await expect(agent.invoke(user("update it"))).rejects.toThrow(/CRM timed out/);
  });

  it("toolErrors: a list of classes catches only those", async () => {
    const caught = createDeepAgent({
      model: callsUpdate(),
      tools: [flaky(new TicketSystemDown("down"))],
      toolErrors: [TicketSystemDown],
    });
    expect(toolMessages(await caught.invoke(user("x")))[0]!.status).toBe("error");
    const rethrown = createDeepAgent({
      model: callsUpdate(),
      tools: [flaky(new TypeError("bug"))],
      toolErrors: [TicketSystemDown],
    });
    await expect(rethrown.invoke(user("x"))).rejects.toThrow(/bug/);
  });

  it("toolErrors: a formatter writes the model-facing text", async () => {
    const agent = createDeepAgent({
      model: callsUpdate(),
      tools: [flaky(new Error("503"))],
      toolErrors: (error, call) =>
        `${call.name} is unavailable (${(error as Error).message}); try later`,
    });
    const [result] = toolMessages(await agent.invoke(user("x")));
    expect(result!.content).toBe("Error: update_ticket is unavailable (503); try later");
    expect(result!.status).toBe("error");
  });

  it("an unknown tool gets an error result listing only the tools the model can see", async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "search_everything", args: {} }] },
      "fine",
    ]);
    const agent = createDeepAgent({ model, tools: [getTicketTool()] });
    const [result] = toolMessages(await agent.invoke(user("x")));
    expect(result!.status).toBe("error");
    expect(result!.content).toMatch(/unknown tool "search_everything"/);
    expect(result!.content).toMatch(/get_ticket/);
    expect(result!.content).not.toMatch(/execute/);
  });

  it("invalid arguments get an error result that says what is wrong", async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "read_file", args: { path_to_file: "/a.md" } }] },
      "fine",
    ]);
    const agent = createDeepAgent({ model });
    const [result] = toolMessages(await agent.invoke(user("x")));
    expect(result!.status).toBe("error");
    expect(result!.content).toMatch(/invalid arguments for read_file/);
    expect(result!.content).toMatch(/file_path/);
  });

  it("calling execute on a backend that cannot execute answers an error result", async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "execute", args: { command: "ls" } }] },
      "fine",
    ]);
    const [result] = toolMessages(await createDeepAgent({ model }).invoke(user("x")));
    expect(result!.status).toBe("error");
    expect(result!.content).toMatch(/not available/);
  });

  it("a LangGraph interrupt raised by a tool is never swallowed", async () => {
    const approve = tool(async () => interrupt({ question: "refund?" }) as string, {
      name: "refund",
      description: "Refund an order after a human says yes.",
      schema: z.object({}),
    });
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "refund", args: {} }] },
      "refunded",
    ]);
    const agent = createDeepAgent({ model, tools: [approve], checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "hitl-1" } };
    const paused: any = await agent.invoke(user("refund"), config);
    expect(paused.__interrupt__?.[0]?.value).toEqual({ question: "refund?" });
    const resumed = await agent.invoke(new Command({ resume: "yes" }) as any, config);
    expect(toolMessages(resumed).at(-1)!.content).toBe("yes");
  });
});

describe("files in state", () => {
  it("files seeded in the input are readable, and persist per thread with a checkpointer", async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "read_file", args: { file_path: "/kb/faq.md" } }] },
      { toolCalls: [{ name: "write_file", args: { file_path: "/notes.md", content: "a" } }] },
      "done",
      { toolCalls: [{ name: "ls", args: { path: "/" } }] },
      "done again",
    ]);
    const agent = createDeepAgent({ model, checkpointer: new MemorySaver() });
    const a = { configurable: { thread_id: "A" } };
    const first = await agent.invoke(
      { ...user("read the faq"), files: { "/kb/faq.md": "Warranty: 12 months" } },
      a,
    );
    expect(toolMessages(first)[0]!.content).toBe("1  Warranty: 12 months");
    expect(Object.keys(first.files).sort()).toEqual(["/kb/faq.md", "/notes.md"]);
    const again = await agent.invoke(user("list"), a);
    expect(toolMessages(again).at(-1)!.content).toMatch(/\/kb\/\n\/notes.md {2}1 B/);
  });

  it("files never leak between threads", async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "write_file", args: { file_path: "/secret.md", content: "A only" } }] },
      "written",
      { toolCalls: [{ name: "read_file", args: { file_path: "/secret.md" } }] },
      "tried",
    ]);
    const agent = createDeepAgent({ model, checkpointer: new MemorySaver() });
    await agent.invoke(user("write"), { configurable: { thread_id: "A" } });
    const other = await agent.invoke(user("read"), { configurable: { thread_id: "B" } });
    const [result] = toolMessages(other);
    expect(result!.status).toBe("error");
    expect(result!.content).toMatch(/does not exist/);
    expect(other.files["/secret.md"]).toBeUndefined();
  });

  it("parallel writes in one model turn all land", async () => {
    const calls = Array.from({ length: 5 }, (_, i) => ({
      name: "write_file",
      args: { file_path: `/p/${i}.md`, content: `file ${i}` },
    }));
    const model = new ScriptedChatModel([{ toolCalls: calls }, "done"]);
    const out = await createDeepAgent({ model }).invoke(user("write five"));
    expect(Object.keys(out.files).sort()).toEqual(calls.map((c) => c.args.file_path).sort());
  });
});

describe("a scripted multi-step run", () => {
  it("writes, edits, greps, reads back, and delegates one step to task", async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "get_ticket", args: { ticket_id: "T-1001" } }] },
      (messages) => {
        const ticket = JSON.parse(String(messages.at(-1)!.content));
        return {
          toolCalls: [
            {
              name: "write_file",
              args: {
                file_path: "/brief.md",
                content: `# Brief\n- ${ticket.id}: ${ticket.summary}\n`,
              },
            },
          ],
        };
      },
      {
        toolCalls: [
          {
            name: "edit_file",
            args: { file_path: "/brief.md", old_string: "# Brief", new_string: "# Ticket brief" },
          },
        ],
      },
      { toolCalls: [{ name: "grep", args: { pattern: "delayed", output_mode: "content" } }] },
      {
        toolCalls: [
          {
            name: "task",
            args: {
              description: "Add a next-steps line to /brief.md and delete /scratch.md",
              subagent_type: "general-purpose",
            },
          },
        ],
      },
      // The general-purpose subagent's own turns:
      (messages) => {
        expect(messages.map((m) => m.getType())).toEqual(["system", "human"]);
        return {
          toolCalls: [
            {
              name: "edit_file",
              args: {
                file_path: "/brief.md",
                old_string: "two days\n",
                new_string: "two days\n- next: call the courier\n",
              },
            },
            { name: "delete", args: { file_path: "/scratch.md" } },
          ],
        };
      },
      "Added the next step and removed the scratch file.",
      { toolCalls: [{ name: "read_file", args: { file_path: "/brief.md" } }] },
      "Brief ready.",
    ]);
    const agent = createDeepAgent({ model, tools: [getTicketTool()] });
    const out = await agent.invoke({
      ...user("brief me on T-1001"),
      files: { "/scratch.md": "tmp" },
    });
    const results = toolMessages(out).map((m) => String(m.content));
    expect(results).toContain("/brief.md\n2: - T-1001: express delayed two days");
    expect(results).toContain("Added the next step and removed the scratch file.");
    expect(results.at(-1)).toBe(
      "1  # Ticket brief\n2  - T-1001: express delayed two days\n3  - next: call the courier",
    );
    expect(out.files["/scratch.md"]).toBeUndefined();
    expect(out.files["/brief.md"].content).toMatch(/call the courier/);
    expect(out.messages.at(-1)!.content).toBe("Brief ready.");
    expect(model.used).toBe(model.steps.length);
  });
});
