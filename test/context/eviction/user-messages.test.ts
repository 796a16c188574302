import { HumanMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { createDeepAgent } from "delve";
import { ScriptedChatModel } from "delve/testing";
import { describe, expect, it } from "vitest";

const pasted = Array.from({ length: 12_000 }, (_, i) => `log line ${i}: ${"q".repeat(36)}`).join(
  "\n",
);

describe("a huge pasted user message is saved to a file like a large tool result", () => {
  it("the model sees a notice with the path and a preview; the full text is in the file", async () => {
    expect(pasted.length).toBeGreaterThan(500_000);
    const model = new ScriptedChatModel([
      (messages) => {
        const path = String(messages.at(-1)!.content).match(/\/large_tool_results\/\S+/)![0];
        return {
          toolCalls: [
            {
              name: "read_file",
              args: { file_path: path.replace(/[.,)]$/, ""), offset: 11_999, limit: 1 },
            },
          ],
        };
      },
      "done",
    ]);
    const agent = createDeepAgent({ model, checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "paste" } };
    const out = await agent.invoke({ messages: [new HumanMessage(pasted)] }, config);
    const seen = String(model.calls[0]!.messages.at(-1)!.content);
    expect(seen.length).toBeLessThan(3_000);
    expect(seen).toContain("This message was too large to keep in the conversation");
    expect(seen).toContain("log line 0:");
    expect(seen).toContain("log line 11999:");
    const saved = Object.keys(out.files).find((p) => p.startsWith("/large_tool_results/user-"));
    expect(out.files[saved!]!.content).toBe(pasted);
    // The saved thread holds the notice, not 500 KB, and the model could read the end back.
    const first = out.messages.find((m) => HumanMessage.isInstance(m))!;
    expect(String(first.content).length).toBeLessThan(3_000);
    expect(String(out.messages.find((m: any) => m.name === "read_file")?.content)).toContain(
      "log line 11999:",
    );
    // A later turn neither saves it again nor touches the short message.
    await agent.invoke({ messages: [new HumanMessage("thanks")] }, config).catch(() => undefined);
    const state = await agent.graph.getState(config);
    const saves = Object.keys(state.values.files).filter((p) =>
      p.startsWith("/large_tool_results/user-"),
    );
    expect(saves).toHaveLength(1);
  });

  it("toolTokenLimitBeforeEvict: null leaves user messages whole", async () => {
    const model = new ScriptedChatModel(["ok"]);
    const agent = createDeepAgent({ model, toolTokenLimitBeforeEvict: null, summarization: false });
    await agent.invoke({ messages: [new HumanMessage(pasted)] });
    expect(String(model.calls[0]!.messages.at(-1)!.content)).toBe(pasted);
  });
});
