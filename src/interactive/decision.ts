import { addAllowRule } from "../run/config.js";
import type { PendingCall, RunDecision } from "../run/events.js";
import { editArgsInEditor } from "./editor.js";
import { type Line, shortArgs, textLines } from "./lines.js";

/** A key's decision and the transcript lines that record it, or why there is none yet. */
export type Decided =
  | { decision: RunDecision; lines: Line[]; ruleAdded?: string }
  | { problem: string };

/**
 * What a reviewer's key means for one pending call: y approve, n reject (with the reason
 * typed), e the arguments as edited in $EDITOR, a approve and add the call's narrowest rule to
 * `.delve/config.json`. Nothing runs here: the engine gets the decision.
 */
export function decisionFor(
  call: PendingCall,
  key: "y" | "n" | "e" | "a",
  reason: string | undefined,
  ctx: { workspace: string; env: NodeJS.ProcessEnv; suspend: <T>(run: () => T) => T },
): Decided {
  const name = `${call.tool} ${shortArgs(call.tool, call.args)}`;
  const approved: Line = { text: `✓ approved ${name}`, tone: "ok", truncate: true };
  if (key === "y") return { decision: { type: "approve" }, lines: [approved] };
  if (key === "n") {
    return {
      decision: reason ? { type: "reject", message: reason } : { type: "reject" },
      lines: [
        { text: `✗ rejected ${name}`, tone: "error", truncate: true },
        ...(reason ? textLines(`reason: ${reason}`, "dim", 2) : []),
      ],
    };
  }
  if (key === "e") {
    if (!call.decisions.includes("edit")) return { problem: `${call.tool} cannot be edited` };
    try {
      const args = editArgsInEditor(call.args, ctx.env, ctx.suspend);
      if (!args) return { problem: "edit cancelled (the editor failed); decide again" };
      return {
        decision: { type: "edit", args },
        lines: [
          { text: `✎ edited ${call.tool}`, tone: "ok" },
          ...textLines(JSON.stringify(args), "dim", 2),
        ],
      };
    } catch (error) {
      return { problem: `${(error as Error).message} Decide again.` };
    }
  }
  const rule = call.suggested_rule;
  if (!rule) return { problem: "no narrow rule fits this call; approve it with y" };
  try {
    addAllowRule(ctx.workspace, rule);
  } catch (error) {
    return { problem: (error as Error).message };
  }
  return {
    decision: { type: "approve" },
    lines: [approved, { text: `always allow: "${rule}" added to .delve/config.json`, tone: "ok" }],
    ruleAdded: rule,
  };
}
