import { createHash } from "node:crypto";

const SAFE = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * A file-name-safe form of an id (a tool call id, a thread id) that never fails: an id made
 * of letters, digits, `_` and `-`, up to 64 characters, is kept as is; any other id (too
 * long, odd characters, empty) becomes a readable prefix plus a 12-hex hash of the whole id,
 * so two ids never share a name and no name exceeds an OS file-name limit.
 *
 * @example
 * safeFileName("call_abc123"); // "call_abc123"
 * safeFileName("run/7:call.1"); // "run_7_call_1-" followed by 12 hex digits
 */
export function safeFileName(id: string | undefined | null): string {
  const text = id ?? "";
  if (SAFE.test(text)) return text;
  const prefix = text.replace(/[^A-Za-z0-9_-]+/g, "_").slice(0, 40);
  const hash = createHash("sha256").update(text).digest("hex").slice(0, 12);
  return prefix ? `${prefix}-${hash}` : `id-${hash}`;
}
