import { MemorySaver } from "@langchain/langgraph";
import { createDeepAgent, readBudget, readLimitHit } from "delve";
import { model } from "./fixtures.js";

const checkpointer = new MemorySaver();
const thread = { configurable: { thread_id: "t-1" } };
const limits = { modelCalls: 200, tokens: 2_000_000, costUsd: 5, subagentsPerTurn: 8 };
const agent = createDeepAgent({ model, checkpointer, limits });

const out = await agent.invoke(
  { messages: [{ role: "user", content: "Triage the queue" }] },
  thread,
);
const hit = readLimitHit(out); // { name: "tokens", value: 2000000, used: 2000417, reason } or undefined
console.log(hit?.reason, readBudget(out).modelCalls);

// The thread keeps its counts: a raised limit continues where the run stopped.
const raised = createDeepAgent({ model, checkpointer, limits: { ...limits, tokens: 4_000_000 } });
await raised.invoke({ messages: [{ role: "user", content: "Continue" }] }, thread);
