// The flags every running command shares, read into the engine's session options and limits.
import fs from "node:fs";
import type { RunLimits, SessionOptions } from "../run/engine.js";
import type { ParsedArgs } from "./args.js";
import { UsageError } from "./args.js";

/** A flag's value when it is a string. */
export const str = (v: unknown) => (typeof v === "string" ? v : undefined);

/** The `--max-turns`, `--timeout`, `--max-cost` and `--include-partial-messages` of a command. */
export function limitsOf(values: ParsedArgs["values"]): RunLimits {
  const n = (name: string) => (str(values[name]) === undefined ? undefined : Number(values[name]));
  const timeout = n("timeout");
  const partial = values["include-partial-messages"] === true;
  if (partial && str(values.output) !== "stream-json")
    throw new UsageError("--include-partial-messages goes with --output stream-json.");
  return {
    ...(partial ? { textDeltas: true } : {}),
    ...(n("max-turns") !== undefined ? { maxTurns: n("max-turns") } : {}),
    ...(timeout !== undefined ? { timeoutMs: timeout * 1000 } : {}),
    ...(n("max-cost") !== undefined ? { maxCostUsd: n("max-cost") } : {}),
  };
}

function readPrices(file: string | undefined) {
  if (!file) return undefined;
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    throw new UsageError(`--prices ${file}: cannot read it as JSON (${(error as Error).message}).`);
  }
}

/** The session options every running command shares (`--cwd`, `--prices`, notices). */
export function sessionOptions(args: ParsedArgs, extra: Partial<SessionOptions>): SessionOptions {
  const v = args.values;
  return {
    workspace: str(v.cwd) ?? process.cwd(),
    ...(str(v.prices) ? { prices: readPrices(str(v.prices)) } : {}),
    notice: (line) => process.stderr.write(`delve: ${line}\n`),
    ...extra,
  };
}

/** The session options of `delve run` (and the interactive session) from its flags. */
export function runSessionOptions(args: ParsedArgs, task?: string): SessionOptions {
  const v = args.values;
  return sessionOptions(args, {
    ...(str(v.thread) ? { threadId: str(v.thread) } : {}),
    continueLatest: Boolean(v.continue),
    ...(task ? { title: task } : {}),
    ...(str(v.model) ? { model: str(v.model) } : {}),
    ...(str(v.agent) ? { agent: str(v.agent) } : {}),
    ...(str(v.sandbox) ? { sandbox: str(v.sandbox) as "auto" } : {}),
    ...(str(v.approval) ? { approval: str(v.approval) as "ask" } : {}),
    ...(str(v.mcp) ? { mcp: str(v.mcp) } : {}),
    ...(str(v.replay) ? { replay: str(v.replay) } : {}),
    ...(str(v.record) ? { record: str(v.record) } : {}),
    ...(v["ask-user"] ? { askUser: true } : {}),
    ...(str(v["human-io"]) ? { humanIo: str(v["human-io"]) } : {}),
  });
}
