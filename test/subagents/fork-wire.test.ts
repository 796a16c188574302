import { HumanMessage } from "@langchain/core/messages";
import { createDeepAgent, toolText } from "delve";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WIRE_APIS } from "../wire/providers.js";
import type { FakeApi } from "../wire/wire-rules.js";

// A fork's first request carries the parent's conversation: the fakes refuse it, as the real
// APIs would, if the in-flight task call (or its sibling) were left without a result.
describe.each(WIRE_APIS)("a forked subagent over $name", (api) => {
  let fake: FakeApi;
  beforeEach(async () => {
    fake = await api.start();
  });
  afterEach(() => fake.close());

  it("the fork's request is valid: answered history kept, in-flight calls dropped", async () => {
    fake.script([
      { text: "Checking.", toolCalls: [{ name: "ls", args: { path: "/" }, id: "ls1" }] },
      {
        text: "Delegating.",
        toolCalls: [
          {
            name: "task",
            args: { description: "Count the files.", subagent_type: "twin" },
            id: "t1",
          },
          { name: "glob", args: { pattern: "*.md" }, id: "g1" },
        ],
      },
      { text: "two files" },
      { text: "The fork says two files." },
    ]);
    const agent = createDeepAgent({
      model: api.model(fake),
      systemPrompt: "You are the parent.",
      subagents: [{ name: "twin", description: "Knows the conversation.", mode: "fork" }],
    });
    const out = await agent.invoke({
      messages: [new HumanMessage("How many notes?")],
      files: { "/a.md": "a", "/b.md": "b" },
    });
    expect(fake.requests.map((r) => r.rejected)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    const forkBody = JSON.stringify(fake.requests[2]!.body);
    expect(forkBody).toContain("You are the parent.");
    expect(forkBody).toContain("How many notes?");
    expect(forkBody).toContain("Count the files.");
    expect(forkBody).not.toContain('"t1"');
    expect(forkBody).not.toContain('"g1"');
    expect(toolText(out.messages.find((m: any) => m.tool_call_id === "t1"))).toBe("two files");
    expect(out.messages.at(-1)!.text).toBe("The fork says two files.");
  });
});
