import type { FileData } from "../backends/protocol/protocol.js";
import { decide } from "../permissions/decide.js";
import { decideDelete } from "../permissions/delete.js";
import { deleteDeniedMessage, permissionDeniedMessage } from "../permissions/message.js";
import type { PermissionRule } from "../permissions/types.js";

/** A subagent's change the parent's rules refused, and the rule's one-line reason. */
export interface RefusedChange {
  path: string;
  reason: string;
}

/**
 * Splits a subagent's file changes (FileData written, null deleted) into what the parent's
 * rules let it write and what they refuse. A write is decided like `write_file`, a deletion
 * like `delete`; `deny` always refuses, `interrupt` is kept only when the subagent ran under
 * these same rules (a human was asked there), since nobody approved it otherwise.
 *
 * @example
 * admitFileChanges(rules, { "/policies/a.md": data, "/notes/b.md": data }, false)
 * // { admitted: { "/notes/b.md": data }, refused: [{ path: "/policies/a.md", reason: "..." }] }
 */
export function admitFileChanges(
  rules: readonly PermissionRule[],
  changes: Record<string, FileData | null>,
  sharesRules: boolean,
): { admitted: Record<string, FileData | null>; refused: RefusedChange[] } {
  if (rules.length === 0) return { admitted: changes, refused: [] };
  const admitted: Record<string, FileData | null> = {};
  const refused: RefusedChange[] = [];
  for (const [path, data] of Object.entries(changes)) {
    const decision = data === null ? decideDelete(rules, path) : decide(rules, "write", path);
    if (decision.mode === "allow" || (decision.mode === "interrupt" && sharesRules)) {
      admitted[path] = data;
      continue;
    }
    const reason =
      data === null
        ? deleteDeniedMessage(path, decideDelete(rules, path))
        : permissionDeniedMessage("write", path, decision);
    refused.push({ path, reason });
  }
  return { admitted, refused };
}

const NAMED = 5;

/**
 * The note appended to a `task` result when changes were refused: which files were not
 * changed and the first reason, so the parent model knows its files are as they were.
 *
 * @example
 * refusedNote([{ path: "/policies/a.md", reason: "Permission denied: ..." }])
 * // "\n\n[Not applied: the subagent's change to /policies/a.md. Permission denied: ...]"
 */
export function refusedNote(refused: readonly RefusedChange[]): string {
  if (refused.length === 0) return "";
  const paths = refused.slice(0, NAMED).map((r) => r.path);
  const more = refused.length > NAMED ? ` and ${refused.length - NAMED} more` : "";
  const what = refused.length === 1 ? "change" : "changes";
  return `\n\n[Not applied: the subagent's ${what} to ${paths.join(", ")}${more}. ${refused[0]!.reason}]`;
}
