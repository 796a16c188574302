// Re-records examples/run-demo/run.cassette.json: `delve run --record` through the real
// ChatOpenAI against the fake OpenAI server of test/wire, answering from the scripted turns
// below. Run it when a change to the agent's prompts or tool descriptions breaks the replay:
//   npx tsx examples/run-demo/record.ts
import fs from "node:fs";
import path from "node:path";
import { startFakeOpenAi } from "../../test/wire/fake-openai.js";
import { DEMO_CASSETTE, DEMO_TASK, delve, freshWorkspace, RUN_FLAGS } from "./demo.js";

const SUMMARY = "Two items are left: retry failed uploads, and document the CLI.\n";

const fake = await startFakeOpenAi();
try {
  fake.script([
    { toolCalls: [{ id: "call_read", name: "read_file", args: { file_path: "/TODO.md" } }] },
    {
      toolCalls: [
        {
          id: "call_write",
          name: "write_file",
          args: { file_path: "/SUMMARY.md", content: SUMMARY },
        },
      ],
    },
    { text: `SUMMARY.md says: ${SUMMARY.trim()}` },
  ]);
  const workspace = freshWorkspace();
  const recording = `${DEMO_CASSETTE}.tmp`;
  const run = await delve(
    workspace,
    [
      "run",
      "--cwd",
      workspace,
      "--model",
      "openai:gpt-4.1-mini",
      ...RUN_FLAGS,
      "--record",
      recording,
      DEMO_TASK,
    ],
    { ...process.env, OPENAI_API_KEY: "sk-demo", OPENAI_BASE_URL: fake.url },
  );
  process.stderr.write(run.stderr);
  if (run.code !== 0 || fs.readFileSync(path.join(workspace, "SUMMARY.md"), "utf8") !== SUMMARY) {
    throw new Error(`the recording run failed (exit ${run.code}): ${run.stdout}`);
  }
  fs.renameSync(recording, DEMO_CASSETTE);
  console.log(`recorded ${fake.requests.length} model calls to ${DEMO_CASSETTE}`);
} finally {
  await fake.close();
}
