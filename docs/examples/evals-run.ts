import { runTaskSet } from "delve/evals";
import taskSet from "./evals-task-set.js";

const report = await runTaskSet(taskSet, {
  model: "anthropic:claude-sonnet-4-6", // or a chat model, or (task, run) => model
  record: "evals/desk.cassette.json", // or replay: "evals/desk.cassette.json"
  repeat: 5, // runs per task, for pass rates on real models
  concurrency: 2, // task runs at once (default 2)
  prices: { "claude-sonnet-4-6": { input: 3, output: 15 } }, // USD per million tokens
});
console.log(report.summary);
