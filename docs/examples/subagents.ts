import { createDeepAgent } from "delve";
import { model } from "./fixtures.js";

const reviewerAgent = createDeepAgent({ model, systemPrompt: "Review the brief in /brief.md." });

export const agent = createDeepAgent({
  model,
  subagents: [
    {
      name: "researcher",
      description: "Answers from /kb with citations.",
      systemPrompt: "Answer from the files under /kb; cite each path you use.",
      tools: [],
    },
    { name: "reviewer", description: "Reviews a brief.", runnable: reviewerAgent }, // a CompiledSubAgent
  ],
});
