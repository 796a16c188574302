import { ScriptedChatModel } from "delve/testing";

export const model = new ScriptedChatModel([
  { toolCalls: [{ name: "read_file", args: { file_path: "/kb/faq.md" } }] },
  (messages) => `The FAQ says: ${messages.at(-1)?.text}`,
]);
