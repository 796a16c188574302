import type { BackendError, GrepMatch } from "../protocol/protocol.js";

/**
 * The shell side of `BaseSandbox`: quoting, the exit codes its scripts report refusals with,
 * the prelude and directory-entry lines every script starts with, and the parsers of their
 * NUL-separated output. Everything model-supplied reaches a script through `shellQuote`.
 */

/**
 * Quotes a string as one POSIX shell word: single quotes, with each `'` written as `'\''`.
 * Every byte but NUL survives, so model-supplied text can never become shell syntax.
 *
 * @example
 * `grep -F -e ${shellQuote(pattern)} -- file` // pattern "$(rm -rf /)" stays literal
 */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

// Exit codes of `BaseSandbox`'s scripts, mapped to protocol errors by `errorOf`.
export const NOT_FOUND = 3;
export const NOT_A_DIRECTORY = 4;
export const IS_DIRECTORY = 5;
export const OUTSIDE = 6;
export const MKDIR_FAILED = 8;

// Script argument lists are cut so one `sh -c` string stays below Linux's 128 KiB per argument.
export const MAX_SCRIPT_BYTES = 96 * 1024;

/**
 * The lines every script starts with: a C locale, W as the workspace's physical path, and
 * `inside DIR`, which sets R to DIR's physical path and exits unless it is the workspace or
 * below it (a symlinked directory may lead out).
 */
export function scriptPrelude(workspace: string): string {
  return `export LC_ALL=C
W=$(cd -- ${shellQuote(workspace || "/")} 2>/dev/null && pwd -P) || exit 70
inside() { R=$(cd -- "$1" 2>/dev/null && pwd -P) || exit ${NOT_FOUND}; [ "$W" = / ] && return 0; case "$R" in "$W"|"$W"/*) return 0;; esac; exit ${OUTSIDE}; }`;
}

/**
 * Shell lines that enter a directory (a sandbox path) after checking that it exists, is a
 * directory and really lies in the workspace.
 */
export function enterDirScript(sandboxDir: string): string {
  return `D=${shellQuote(sandboxDir)}
[ -e "$D" ] || [ -L "$D" ] || exit ${NOT_FOUND}
[ -d "$D" ] || exit ${NOT_A_DIRECTORY}
inside "$D"; cd -- "$R" || exit ${NOT_FOUND}`;
}

/** A script that exited non-zero: its exit code, its output, and the cause when known. */
export interface ScriptFailure {
  exitCode: number | null;
  output: string;
  cause?: BackendError;
}

/** The protocol error for a failed script that worked on `path`. */
export function errorOf(failure: ScriptFailure, path: string): BackendError {
  const { exitCode, output, cause } = failure;
  if (cause) return cause;
  switch (exitCode) {
    case NOT_FOUND:
      return { code: "not_found", message: `not found: ${path}` };
    case NOT_A_DIRECTORY:
      return { code: "not_a_directory", message: `${path}: a file is in the way of this path` };
    case IS_DIRECTORY:
      return { code: "is_directory", message: `${path} is a directory` };
    case OUTSIDE:
      return {
        code: "permission_denied",
        message: `${path} leads outside the workspace through a symlink`,
      };
    case MKDIR_FAILED: {
      const code = /read-only|not permitted/i.test(output) ? "permission_denied" : "io";
      return { code, message: `${path}: could not create the parent directory` };
    }
    default: {
      const first = output.trim().split("\n")[0]?.slice(0, 200) ?? "";
      return {
        code: "io",
        message: `${path}: sandbox command failed (exit ${exitCode})${first ? `: ${first}` : ""}`,
      };
    }
  }
}

/** "path\0line:text\n" records of `grep -nHZ`; a record cut by an output cap is dropped. */
export function parseGrep(output: string, virtualOf: Map<string, string>): GrepMatch[] {
  const out: GrepMatch[] = [];
  let at = 0;
  while (at < output.length) {
    const nul = output.indexOf("\0", at);
    const colon = nul === -1 ? -1 : output.indexOf(":", nul + 1);
    const end = colon === -1 ? -1 : output.indexOf("\n", colon + 1);
    if (end === -1) break;
    const path = virtualOf.get(output.slice(at, nul));
    let text = output.slice(colon + 1, end);
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (path) out.push({ path, line: Number(output.slice(nul + 1, colon)), text });
    at = end + 1;
  }
  return out;
}

/** The NUL-terminated records of a script's output. */
export function records(output: string): string[] {
  const parts = output.split("\0");
  parts.pop(); // the text after the last NUL: empty, or a record cut by the output cap
  return parts;
}

/** Splits off `count` leading fields separated by "/"; the rest (a path) is the last field. */
export function splitFields(record: string, count: number): string[] {
  const fields: string[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    const next = record.indexOf("/", at);
    fields.push(record.slice(at, next));
    at = next + 1;
  }
  fields.push(record.slice(at));
  return fields;
}

/** Cuts a list of shell words into batches of at most `maxBytes` each. */
export function* batches(words: string[], maxBytes: number): Generator<string[]> {
  let batch: string[] = [];
  let size = 0;
  for (const word of words) {
    const bytes = Buffer.byteLength(word) + 1;
    if (batch.length > 0 && size + bytes > maxBytes) {
      yield batch;
      batch = [];
      size = 0;
    }
    batch.push(word);
    size += bytes;
  }
  if (batch.length > 0) yield batch;
}

/** The ISO time of a `find -printf %T@` timestamp (seconds with a fraction). */
export function isoOf(seconds: string): string {
  return new Date(Math.floor(Number(seconds) * 1000)).toISOString();
}
