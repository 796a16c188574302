// TEMPORARY STUB: the real module comes from branch h-run-rules (same interface).

import fs from "node:fs";
import { threadsDbFile } from "../run/threads-db.js";

/** What this machine offers, one actionable line each. */
export async function doctorLines(opts: {
  cwd: string;
  env: NodeJS.ProcessEnv;
}): Promise<{ ok: boolean; text: string }[]> {
  const { probeBubblewrap } = await import("../backends/sandbox/bwrap-args.js");
  const probe = probeBubblewrap();
  return [
    probe.ok
      ? { ok: true, text: `sandbox: bubblewrap at ${probe.path}` }
      : { ok: false, text: `sandbox: unavailable (${probe.detail})` },
    {
      ok: Boolean(opts.env.OPENAI_API_KEY || opts.env.ANTHROPIC_API_KEY),
      text: "provider keys: OPENAI_API_KEY / ANTHROPIC_API_KEY",
    },
    {
      ok: true,
      text: `threads database: ${fs.existsSync(threadsDbFile(opts.cwd)) ? "" : "(none yet) "}${threadsDbFile(opts.cwd)}`,
    },
  ];
}
