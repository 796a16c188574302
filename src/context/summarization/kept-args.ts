import { createHash } from "node:crypto";
import type { BackendProtocol } from "../../backends/protocol/protocol.js";
import { safeFileName } from "../safe-name.js";
import type { LongFileArg } from "./shorten-args.js";

/**
 * Where the shortened arguments of one conversation are kept: beside its transcript,
 * `<transcript>.args/<call id>-<argument>-<hash>.txt`. The hash of the text keeps two calls
 * that share an id (a model may reuse `call_0`) apart.
 *
 * @example
 * argFilePaths("/conversation_history/t-1.md")(arg) // "/conversation_history/t-1.args/call_1-content-9f86d081884c.txt"
 */
export function argFilePaths(transcriptPath: string): (arg: LongFileArg) => string {
  const dir = `${transcriptPath.replace(/\.md$/, "")}.args`;
  return (arg) => {
    const hash = createHash("sha256").update(arg.value).digest("hex").slice(0, 12);
    return `${dir}/${safeFileName(arg.callId)}-${arg.arg}-${hash}.txt`;
  };
}

/** The note that replaces an argument kept at `path`: its size and where it is, nothing more. */
export function keptNote(arg: LongFileArg, path: string): string {
  return `(${arg.value.length} chars; full text in ${path})`;
}

/** Saves each argument's text at its path; returns the paths that were saved. */
export async function keepArgs(
  backend: BackendProtocol,
  args: readonly LongFileArg[],
  pathOf: (arg: LongFileArg) => string,
): Promise<Set<string>> {
  const kept = new Set<string>();
  if (args.length === 0) return kept;
  const encoder = new TextEncoder();
  try {
    const results = await backend.uploadFiles(
      args.map((a) => ({ path: pathOf(a), content: encoder.encode(a.value) })),
    );
    args.forEach((a, i) => {
      if (results[i] && !results[i]!.error) kept.add(pathOf(a));
    });
  } catch {
    // Nothing saved: every note then says the text was not kept.
  }
  return kept;
}
