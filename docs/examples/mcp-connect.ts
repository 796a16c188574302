import { ToolMessage } from "@langchain/core/messages";
import { createDeepAgent } from "delve";
import { connectMcp, type McpInterceptor, toolText } from "delve/mcp";
import { model } from "./fixtures.js";

const audit: McpInterceptor = {
  before: (call) => ({ ...call, headers: { "X-Request-Id": crypto.randomUUID() } }), // HTTP only
  after: (call, result) => void console.log(`${call.server}.${call.tool} -> ${result.status}`),
};
const mcp = await connectMcp(
  {
    ticket: {
      transport: "stdio",
      command: "node",
      args: ["--import", "tsx", "examples/ticket-desk/server-stdio.ts"],
      env: { TICKET_DESK_DB: "./tickets.db" }, // the parent's environment is not inherited
    },
    crm: {
      transport: "http",
      url: "http://127.0.0.1:8931/mcp",
      headers: { Authorization: `Bearer ${process.env.CRM_TOKEN}` },
      prefix: "crm_", // crm_get_ticket: no clash with the ticket server
      exclude: ["delete_customer"],
      interceptors: [audit],
    },
  },
  { timeoutMs: 60_000, connectTimeoutMs: 30_000 }, // ConnectMcpOptions: defaults for every server
);
try {
  const agent = createDeepAgent({ model, tools: mcp.tools });
  const out = await agent.invoke({ messages: [{ role: "user", content: "Brief me on T-1001" }] });
  for (const m of out.messages) {
    if (ToolMessage.isInstance(m)) console.log(toolText(m)); // plain text of MCP content blocks
  }
} finally {
  await mcp.close(); // ends stdio servers (they also end when this process exits)
}
