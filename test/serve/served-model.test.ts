// The served graph's scripted model, in process: one model shared by every thread of a
// server, as `langgraphjs dev` shares it.

import { tool } from "@langchain/core/tools";
import { MemorySaver } from "@langchain/langgraph";
import { createDeepAgent } from "delve";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { servedDeskModel, servedModel } from "../../examples/ticket-desk/served-model.js";

const say = (content: string) => ({ messages: [{ role: "user", content }] });
const write = (path: string, content: string) =>
  `call write_file ${JSON.stringify({ file_path: path, content })}`;

// Stand-ins for the two MCP ticket tools, with the seed task's answers.
const getTicket = tool(async ({ ticket_id }) => JSON.stringify({ ticket_id, status: "closed" }), {
  name: "get_ticket",
  description: "Get a ticket.",
  schema: z.object({ ticket_id: z.string() }),
});
const searchTickets = tool(async () => JSON.stringify({ items: [], total: 0 }), {
  name: "search_tickets",
  description: "Search tickets.",
  schema: z.object({ status: z.string() }),
});

function agent() {
  return createDeepAgent({
    model: servedDeskModel(),
    tools: [getTicket, searchTickets],
    checkpointer: new MemorySaver(),
  });
}

describe("the served desk model", () => {
  it("serves interleaved threads, each from its own conversation", async () => {
    const desk = agent();
    const a = { configurable: { thread_id: "a" } };
    const b = { configurable: { thread_id: "b" } };
    // A counting script would hand thread b the step after thread a's, and fail here.
    await desk.invoke(say(write("/a.md", "from a")), a);
    await desk.invoke(say(write("/b.md", "from b")), b);
    const second = await desk.invoke(say(write("/a2.md", "again")), a);
    const other = await desk.invoke(say("Write the ticket brief."), b);

    expect(Object.keys(second.files).sort()).toEqual(["/a.md", "/a2.md"]);
    expect(second.messages.at(-1)?.text).toBe("write_file: Wrote /a2.md (1 line).");
    expect(other.files["/brief.md"]?.content).toContain("T-1001: closed");
    expect(other.messages.at(-1)?.text).toMatch(/^The brief is in \/brief\.md/);
  });

  it("gives every tool call of a thread its own id", async () => {
    const desk = agent();
    const config = { configurable: { thread_id: "ids" } };
    await desk.invoke(say(`${write("/1.md", "1")}\n${write("/2.md", "2")}`), config);
    const { messages } = await desk.invoke(say(write("/3.md", "3")), config);
    const ids = messages.flatMap((m: any) => m.tool_calls ?? []).map((c: any) => c.id);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
  });

  it("runs the ticket brief for a message that is not a list of calls", async () => {
    const { messages } = await agent().invoke(say("call me maybe"), {
      configurable: { thread_id: "brief" },
    });
    const first = messages.find((m: any) => m.tool_calls?.length) as any;
    expect(first.tool_calls.map((c: any) => c.name)).toEqual([
      "get_ticket",
      "get_ticket",
      "search_tickets",
    ]);
  });

  it("answers arguments that are not JSON instead of failing the run", async () => {
    const { messages } = await agent().invoke(say("call write_file {not json}"), {
      configurable: { thread_id: "bad" },
    });
    expect(messages.at(-1)?.text).toMatch(/^The arguments are not JSON: /);
  });

  it("gives way to a provider when its key is set, as the demo does", () => {
    expect(servedModel({ OPENAI_API_KEY: "sk-test" })).toBe("openai:gpt-5.5");
    expect(servedModel({ ANTHROPIC_API_KEY: "sk-test" })).toBe("anthropic:claude-sonnet-4-6");
    const offline = servedModel({});
    expect(offline).not.toBeTypeOf("string");
    expect((offline as any)._llmType()).toBe("scripted-thread");
  });
});
