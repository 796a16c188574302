import type { BaseMessage } from "@langchain/core/messages";
import { createDeepAgent, inspectSurface, ScriptedChatModel } from "delve";
import { getTicket } from "./tickets.js";

/** The scripted model: it reads the tool results it actually received and writes from them. */
export function demoModel() {
  return new ScriptedChatModel([
    {
      text: "Looking up both tickets.",
      toolCalls: [
        { name: "get_ticket", args: { ticket_id: "T-1001" } },
        { name: "get_ticket", args: { ticket_id: "T-1003" } },
      ],
    },
    (messages: BaseMessage[]) => {
      const tickets = messages
        .filter((m) => m.getType() === "tool")
        .map((m) => JSON.parse(String(m.content)))
        .filter((t) => t.ok);
      const lines = tickets.map((t) => `- ${t.id} (${t.status}, ${t.category}): ${t.summary}`);
      return {
        toolCalls: [
          {
            name: "write_file",
            args: { file_path: "/brief.md", content: `# Ticket brief\n\n${lines.join("\n")}\n` },
          },
        ],
      };
    },
    { toolCalls: [{ name: "read_file", args: { file_path: "/brief.md" } }] },
    (messages: BaseMessage[]) =>
      `Brief written to /brief.md:\n${String(messages.at(-1)?.content ?? "")}`,
  ]);
}

/** Runs the ticket agent offline and returns its trace, files and surface report. */
export async function runTicketDemo() {
  const agent = createDeepAgent({
    model: demoModel(),
    tools: [getTicket],
    systemPrompt: "You are a support desk assistant. Use the ticket tools; write briefs to files.",
  });
  const surface = await inspectSurface(agent);
  const result = await agent.invoke({
    messages: [
      { role: "user", content: "Look up T-1001 and T-1003 and write a brief to brief.md." },
    ],
  });
  return { messages: result.messages as BaseMessage[], files: result.files, surface };
}

/** One line per message: who said what, and which tools were called with which arguments. */
export function formatTrace(messages: BaseMessage[]): string {
  return messages
    .map((m: any) => {
      const type = m.getType();
      if (type === "human") return `user   > ${m.text}`;
      if (type === "tool")
        return `tool   < ${m.name}${m.status === "error" ? " (error)" : ""}: ${m.text.replace(/\n/g, "\\n")}`;
      const calls = (m.tool_calls ?? []).map((c: any) => `${c.name}(${JSON.stringify(c.args)})`);
      return `model  > ${[m.text, ...calls].filter(Boolean).join(" | ")}`;
    })
    .join("\n");
}
