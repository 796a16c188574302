// docs/examples/ask-user.ts
import { Command, MemorySaver } from "@langchain/langgraph";
import { createDeepAgent, pendingQuestions, type UserAnswer } from "delve";
import { model } from "./fixtures.js";

const agent = createDeepAgent({ model, askUser: true, checkpointer: new MemorySaver() });
const config = { configurable: { thread_id: "trip-1" } };

const paused = await agent.invoke({ messages: [{ role: "user", content: "Book a trip" }] }, config);
// PendingQuestion: { type: "ask_user", question, choices?, multiSelect, toolCallId, error?, interruptId }
for (const question of pendingQuestions(paused)) {
  const answer: UserAnswer = { answer: question.multiSelect ? ["Mon", "Wed"] : "Oslo" };
  await agent.invoke(new Command({ resume: answer }), config);
}
// Later, from the saved thread alone (another process, the viewer):
console.log(pendingQuestions(await agent.getState(config)));
