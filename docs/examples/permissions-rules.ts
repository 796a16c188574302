import { MemorySaver } from "@langchain/langgraph";
import { createDeepAgent } from "delve";
import { model } from "./fixtures.js";

export const agent = createDeepAgent({
  model,
  permissions: [
    { operations: ["read", "write"], paths: ["/secrets/**"], mode: "deny" },
    { operations: ["write"], paths: ["/policies/**"], mode: "interrupt" }, // ask a human
  ],
  checkpointer: new MemorySaver(), // needed by "interrupt"
});
