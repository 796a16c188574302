// Prints the `delve run` demo for `npm run demo`: the run's progress (stderr), its answer
// (stdout), and `delve threads show` of its thread.
import { RECORD_COMMAND, replayDemo } from "./demo.js";

/** Runs the replay and prints it; returns the exit code for the demo. */
export async function showRunDemo(): Promise<number> {
  const { workspace, run, show } = await replayDemo();
  console.log(`\n== delve run (replaying examples/run-demo/run.cassette.json in ${workspace}) ==`);
  console.log("-- stderr (progress) --");
  process.stdout.write(run.stderr);
  console.log("-- stdout (the answer) --");
  process.stdout.write(run.stdout);
  console.log("\n== delve threads show ==");
  process.stdout.write(show.stdout + show.stderr);
  if (run.code !== 0 || show.code !== 0) {
    console.error(
      `delve run exited ${run.code}: the cassette no longer matches the agent; re-record it with ${RECORD_COMMAND}`,
    );
    return 1;
  }
  return 0;
}
