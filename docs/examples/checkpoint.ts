import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { createDeepAgent } from "delve";
import { compactCheckpointer } from "delve/checkpoint";
import { model } from "./fixtures.js";

// Long strings (file contents, tool results) are stored once, in the same SQLite file.
const checkpointer = compactCheckpointer(SqliteSaver.fromConnString("threads.db"));
const agent = createDeepAgent({ model, checkpointer, checkpointSnapshotEvery: 500 });

const thread = { configurable: { thread_id: "t-1" } };
await agent.invoke({ messages: [{ role: "user", content: "Draft /brief.md" }] }, thread);
await checkpointer.deleteThread("t-1"); // frees the strings no other thread uses
