/**
 * One answerer of the cross-process answer race: opens the thread, says "ready" once it sees
 * the question, waits for GO_FILE, then answers and prints one JSON line: the outcome.
 * Usage: node --import tsx answer-race-process.ts <cwd> <thread> <answer> <goFile>
 */
import fs from "node:fs";
import { AlreadyDecidedError, openSession } from "../../src/run/engine.js";

const [cwd, thread, answer, goFile] = process.argv.slice(2);
const session = await openSession({ workspace: cwd!, threadId: thread! });
try {
  const questions = await session.questions();
  process.stdout.write(`${JSON.stringify({ ready: questions.length })}\n`);
  // A barrier: both processes hold the same pause before either answers.
  while (!fs.existsSync(goFile!)) await new Promise((r) => setTimeout(r, 5));
  try {
    let status = "";
    for await (const event of session.decide([{ type: "answer", text: answer! }])) {
      if (event.type === "result") status = event.status;
    }
    process.stdout.write(`${JSON.stringify({ outcome: "won", status })}\n`);
  } catch (error) {
    if (!(error instanceof AlreadyDecidedError)) throw error;
    process.stdout.write(`${JSON.stringify({ outcome: "already-decided" })}\n`);
  }
} finally {
  await session.close();
}
