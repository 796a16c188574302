/** The agent of the ask_user process suite: one question, then an answer quoting the reply. */
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { createDeepAgent } from "delve";
import { ScriptedChatModel } from "delve/testing";

/** Builds it over `checkpointer`; `ask` scripts the first turn (the `ask_user` call). */
export function askingAgent(checkpointer: BaseCheckpointSaver, ask: boolean) {
  const model = new ScriptedChatModel([
    ...(ask ? [{ toolCalls: [{ name: "ask_user", args: { question: "Ship?" }, id: "q1" }] }] : []),
    ...Array.from({ length: 4 }, () => (messages: any[]) => `heard: ${messages.at(-1).text}`),
  ]);
  return createDeepAgent({ model, askUser: true, checkpointer });
}
