import type { RunSession } from "../run/engine.js";
import type { Line } from "./lines.js";
import type { StatusInfo } from "./transcript.js";

/**
 * What a thread opens with: its id and the resume hint first (so a crash still leaves them),
 * its settings, and for a resumed thread its last messages.
 */
export async function threadHeader(session: RunSession): Promise<Line[]> {
  const s = session.thread.settings;
  const id = session.thread.id;
  const lines: Line[] = [
    { text: `thread ${id} · ${session.resumed ? "resumed" : "new"}`, tone: "accent" },
    { text: `${s.model} · sandbox ${s.sandbox} · approval ${s.approval}`, tone: "dim" },
    { text: `resume later: delve --thread ${id}`, tone: "dim" },
  ];
  if (s.sandbox === "none")
    lines.push({ text: "execute runs on the host, not in a sandbox", tone: "warn" });
  // How to get help and how to leave, on every first screen.
  const hint: Line = {
    text: "type a task · /help for help · /quit or Ctrl-C twice exits",
    tone: "dim",
  };
  if (!session.resumed) return [...lines, hint];
  const messages = (await session.messages()).filter(
    (m) => (m.role === "human" || m.role === "ai") && m.text,
  );
  for (const m of messages.slice(-4))
    lines.push({
      text: `${m.role === "human" ? "› " : ""}${m.text}`,
      tone: m.role === "human" ? "user" : "dim",
      truncate: true,
    });
  return [...lines, hint];
}

/** The status line's start for a session: its model and approval mode, nothing counted yet. */
export function statusOf(session: RunSession): StatusInfo {
  const s = session.thread.settings;
  return { model: s.model, approval: s.approval, input: 0, output: 0, cost: 0, context: 0 };
}
