// The file tool calls a subagent made, carried on its `task` result (the ToolMessage's
// artifact, kept in the parent's checkpoint, never sent to the model): the subagent's own
// messages live in its checkpoints under another namespace, so without them the parent's
// history could not show what the subagent wrote (the viewer's files per step).
import type { BaseMessage } from "@langchain/core/messages";

/** One successful write_file / edit_file call of a subagent (or of a subagent it ran). */
export interface SubagentFileCall {
  name: "write_file" | "edit_file";
  args: Record<string, unknown>;
  /** The tool's result text ("Wrote ...", "Overwrote ...", "Edited ..."). */
  result: string;
}

/** The artifact of a `task` result that carries its subagent's file calls. */
export interface TaskArtifact {
  file_calls: SubagentFileCall[];
}

const FILE_TOOLS = new Set(["write_file", "edit_file"]);

/** The successful file calls among a subagent's messages, in order, nested ones included. */
export function subagentFileCalls(messages: readonly BaseMessage[]): SubagentFileCall[] {
  const calls = new Map<string, { name: string; args: Record<string, unknown> }>();
  const out: SubagentFileCall[] = [];
  for (const m of messages as any[]) {
    for (const c of m?.tool_calls ?? []) calls.set(String(c.id ?? ""), c);
    if (m?.getType?.() !== "tool" || m.status === "error") continue;
    const call = calls.get(String(m.tool_call_id ?? ""));
    if (!call) continue;
    if (FILE_TOOLS.has(call.name)) {
      const result = typeof m.content === "string" ? m.content : JSON.stringify(m.content);
      out.push({ name: call.name as SubagentFileCall["name"], args: call.args ?? {}, result });
    } else if (call.name === "task") {
      out.push(...((m.artifact as TaskArtifact | undefined)?.file_calls ?? []));
    }
  }
  return out;
}
