import { HumanMessage } from "@langchain/core/messages";
import { Command, MemorySaver } from "@langchain/langgraph";
import { createDeepAgent, InMemoryBackend, StateBackend, toolText } from "delve";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tinyPng, WIRE_APIS } from "./providers.js";
import type { FakeApi } from "./wire-rules.js";

// Multi-request flows over the real provider classes: a subagent, an approval pause and
// resume, and a provider 400 in the middle of a saved thread.
describe.each(WIRE_APIS)("round trips over $name", (api) => {
  let fake: FakeApi;
  beforeEach(async () => {
    fake = await api.start();
  });
  afterEach(() => fake.close());

  it("a task call runs the subagent (which reads an image) on the same API and hands its answer back", async () => {
    const task = { description: "Write /report.md saying ok.", subagent_type: "general-purpose" };
    fake.script([
      { toolCalls: [{ name: "task", args: task, id: "call_task" }] },
      { toolCalls: [{ name: "read_file", args: { file_path: "/chart.png" }, id: "call_r" }] },
      { toolCalls: [{ name: "write_file", args: { file_path: "/report.md", content: "ok" } }] },
      { text: "Wrote /report.md." },
      { text: "The subagent wrote the report." },
    ]);
    const backend = new InMemoryBackend();
    await backend.uploadFiles([{ path: "/chart.png", content: tinyPng() }]);
    const agent = createDeepAgent({ model: api.model(fake), backend });
    const result = await agent.invoke({ messages: [new HumanMessage("delegate the report")] });

    // The subagent's request after its image read is accepted too: it is fitted to the API.
    expect(fake.requests.map((r) => r.rejected)).toEqual(Array(5).fill(undefined));
    // The subagent's own requests start from the task description, not the parent's chat.
    expect(JSON.stringify(fake.requests[1]!.body)).toContain("Write /report.md saying ok.");
    expect(JSON.stringify(fake.requests[1]!.body)).not.toContain("delegate the report");
    const taskResult = result.messages.find((m: any) => m.tool_call_id === "call_task");
    expect(toolText(taskResult)).toContain("Wrote /report.md.");
    expect((await backend.read("/report.md")).lines).toEqual(["ok"]);
  });

  it("an interruptOn pause is resumed with approve and the next request pairs every call", async () => {
    fake.script([
      {
        toolCalls: [
          { name: "write_file", args: { file_path: "/a.md", content: "hi" }, id: "call_a" },
        ],
      },
      { text: "Written." },
    ]);
    const agent = createDeepAgent({
      model: api.model(fake),
      interruptOn: { write_file: true },
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: `approve-${api.name}` } };
    const paused = await agent.invoke({ messages: [new HumanMessage("write /a.md")] }, config);
    expect((paused.__interrupt__?.[0]?.value as any)?.actionRequests?.[0]?.name).toBe("write_file");
    expect(fake.requests).toHaveLength(1);

    const done = await agent.invoke(
      new Command({ resume: { decisions: [{ type: "approve" }] } }) as any,
      config,
    );
    expect(fake.requests.map((r) => r.rejected)).toEqual([undefined, undefined]);
    expect(done.files["/a.md"]?.content).toBe("hi");
    expect(done.messages.at(-1)?.text).toBe("Written.");
  });

  it("an edited and a rejected call: the next request carries the reviewer's arguments and both notes", async () => {
    fake.script([
      {
        toolCalls: [
          { name: "write_file", args: { file_path: "/a.md", content: "hi" }, id: "call_a" },
          { name: "write_file", args: { file_path: "/b.md", content: "no" }, id: "call_b" },
        ],
      },
      { text: "Wrote /a.md as the reviewer changed it." },
    ]);
    const agent = createDeepAgent({
      model: api.model(fake),
      interruptOn: { write_file: true },
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: `edit-${api.name}` } };
    await agent.invoke({ messages: [new HumanMessage("write two files")] }, config);
    const edited = { file_path: "/a.md", content: "hello" };
    const done = await agent.invoke(
      new Command({
        resume: {
          decisions: [
            { type: "edit", editedAction: { name: "write_file", args: edited } },
            { type: "reject" },
          ],
        },
      }) as any,
      config,
    );
    expect(fake.requests.map((r) => r.rejected)).toEqual([undefined, undefined]);
    expect(done.files["/a.md"]?.content).toBe("hello");
    expect(done.files["/b.md"]).toBeUndefined();
    const sent = JSON.stringify(fake.requests[1]!.body);
    expect(sent).toContain(
      'A reviewer changed this call before it ran: content \\"hi\\" -> \\"hello\\".',
    );
    expect(sent).toContain("Rejected by a reviewer; the call did not run.");
    expect(sent).toContain("hello");
  });

  it("a provider 400 fails that turn only: the next invoke on the same thread works", async () => {
    fake.script([
      { toolCalls: [{ name: "ls", args: { path: "/" }, id: "call_ls" }] },
      { fail: "This model's maximum context length is exceeded." },
      { text: "Recovered." },
    ]);
    const agent = createDeepAgent({
      model: api.model(fake),
      backend: new StateBackend(),
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: `poison-${api.name}` } };
    await expect(agent.invoke({ messages: [new HumanMessage("list")] }, config)).rejects.toThrow(
      /maximum context length/,
    );
    const again = await agent.invoke({ messages: [new HumanMessage("try again")] }, config);
    expect(again.messages.at(-1)?.text).toBe("Recovered.");
    // The retried request is valid: the saved ls call and its result still pair up.
    expect(fake.requests.at(-1)!.rejected).toBeUndefined();
    expect(fake.remaining()).toBe(0);
  });
});
