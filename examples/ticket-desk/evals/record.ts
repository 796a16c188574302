// Records the committed cassette with the scripted "good" model standing in for a real one:
//   npx tsx examples/ticket-desk/evals/record.ts
// With a real key, record against the real model through the CLI instead:
//   OPENAI_API_KEY=... npx delve eval examples/ticket-desk/evals/tasks.ts \
//     --model openai:gpt-5.5 --record examples/ticket-desk/evals/desk.cassette.json
import { fileURLToPath } from "node:url";
import { runTaskSet } from "delve/evals";
import { goodDeskModel } from "./scripted-models.js";
import deskTasks from "./tasks.js";

const cassette = fileURLToPath(new URL("./desk.cassette.json", import.meta.url));
const report = await runTaskSet(deskTasks, { model: goodDeskModel, record: cassette });
console.log(`recorded ${cassette}: ${report.summary.passed}/${report.summary.tasks} tasks passed`);
process.exitCode = report.summary.failed ? 1 : 0;
