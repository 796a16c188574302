// docs/examples/subagents-fork.ts
import { createDeepAgent, type SubagentMode } from "delve";
import { model } from "./fixtures.js";

const mode: SubagentMode = "fork"; // "isolated" is the default
export const agent = createDeepAgent({
  model,
  systemPrompt: "You maintain the order service.",
  subagents: [
    // Starts with this agent's prompt and conversation; the task description is the new turn.
    { name: "twin", description: "Continues from what we discussed.", mode },
    // A fork may add instructions after the parent's prompt.
    { name: "critic", description: "Reviews our plan.", mode, systemPrompt: "Find flaws only." },
  ],
});
