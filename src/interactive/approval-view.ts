import fs from "node:fs";
import path from "node:path";
import { createTwoFilesPatch } from "diff";
import type { PendingCall } from "../run/events.js";
import { diffLines, type Line, textLines } from "./lines.js";

/**
 * What a pending call would do, before anything runs: the diff a write or edit would make to
 * the workspace file (read now, written only once approved), else the arguments as JSON.
 */
export function approvalPreview(call: PendingCall, workspace: string): Line[] {
  const diff = plannedDiff(call, workspace);
  if (diff !== undefined)
    return diff.trim() ? diffLines(diff, 0) : [{ text: "  (no change)", tone: "dim" }];
  return textLines(JSON.stringify(call.args, null, 2), "plain", 2);
}

function plannedDiff(call: PendingCall, workspace: string): string | undefined {
  const a = call.args;
  if (typeof a.file_path !== "string") return undefined;
  const rel = a.file_path.replace(/^\/+/, "");
  const file = path.resolve(workspace, rel);
  if (file !== workspace && !file.startsWith(`${workspace}${path.sep}`)) return undefined;
  const before = readText(file);
  let after: string | undefined;
  if (call.tool === "write_file" && typeof a.content === "string") after = a.content;
  if (
    call.tool === "edit_file" &&
    typeof a.old_string === "string" &&
    typeof a.new_string === "string"
  ) {
    if (before === undefined || !before.includes(a.old_string)) return undefined;
    after = a.replace_all
      ? before.split(a.old_string).join(a.new_string)
      : before.replace(a.old_string, () => a.new_string as string);
  }
  if (after === undefined) return undefined;
  return createTwoFilesPatch(rel, rel, before ?? "", after, "", "", { context: 3 });
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/** The keys of an approval, as the prompt lists them. */
export function approvalChoices(call: PendingCall): Line[] {
  const edit = call.decisions.includes("edit");
  return [
    {
      text: `y approve · n reject${edit ? " · e edit" : ""}${call.suggested_rule ? " · a always" : ""}`,
      tone: "accent",
      bold: true,
    },
    ...(call.suggested_rule
      ? [{ text: `a writes allow "${call.suggested_rule}"`, tone: "dim" as const, truncate: true }]
      : []),
  ];
}
