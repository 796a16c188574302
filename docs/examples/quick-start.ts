import { tool } from "@langchain/core/tools";
import { createDeepAgent, inspectSurface } from "delve";
import { z } from "zod";

const db = { ticket: async (id: string) => ({ id, status: "open", summary: "express delayed" }) };

const getTicket = tool(async ({ ticket_id }) => JSON.stringify(await db.ticket(ticket_id)), {
  name: "get_ticket",
  description: "Look up one support ticket by id (T-1001): status, category, summary. Read-only.",
  schema: z.object({ ticket_id: z.string().regex(/^T-\d{4}$/) }),
});

const agent = createDeepAgent({
  model: "anthropic:claude-sonnet-4-6", // or any LangChain chat model instance
  tools: [getTicket],
  systemPrompt: "You are a support desk assistant.",
});

const report = await inspectSurface(agent); // no model call, no key needed
console.log(report.visible.length, report.totalChars); // 9 tools, ~3,650 characters

const out = await agent.invoke({
  messages: [{ role: "user", content: "Brief me on T-1001 in /brief.md" }],
  files: { "/kb/faq.md": "Warranty: 12 months" }, // seed the virtual file system
});
console.log(out.files["/brief.md"].content);
