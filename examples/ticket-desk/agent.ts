import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import { createDeepAgent, inspectSurface, ScriptedChatModel } from "delve";
import { connectMcp, type McpConnection, type McpServerConfig } from "delve/mcp";
import { deskModel } from "./desk-model.js";

/** The seed's task (000 §5.2). */
export const TICKET_DESK_TASK =
  "Look up tickets T-1001 and T-1003, search all unassigned tickets, and write a brief to brief.md.";

const SYSTEM_PROMPT =
  "You are a support desk assistant. Ticket data comes only from the ticket tools: never invent it. Save what you are asked to write with write_file.";
const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
const STDIO_ENTRY = fileURLToPath(new URL("./server-stdio.ts", import.meta.url));

/**
 * The ticket desk server as a `connectMcp` entry: started over stdio (no network needed) on
 * the database at `dbPath`, with this Node and the tsx loader so the TypeScript runs as is.
 *
 * @example
 * await connectMcp({ ticket: ticketDeskStdio("/tmp/tickets.db") });
 */
export function ticketDeskStdio(dbPath: string): McpServerConfig {
  return {
    transport: "stdio",
    command: process.execPath,
    args: ["--import", "tsx", STDIO_ENTRY],
    env: { TICKET_DESK_DB: dbPath },
    cwd: REPO_ROOT,
  };
}

/**
 * The model to run: a real one when a provider key is set (OpenAI first, then Anthropic),
 * otherwise the scripted desk model, which needs no network and no key.
 *
 * @example
 * chooseModel({}) instanceof ScriptedChatModel; // true
 */
export function chooseModel(
  env: NodeJS.ProcessEnv = process.env,
  installed: (pkg: string) => boolean = isInstalled,
): string | BaseChatModel {
  if (env.OPENAI_API_KEY && installed("@langchain/openai")) return "openai:gpt-5.5";
  if (env.ANTHROPIC_API_KEY && installed("@langchain/anthropic")) {
    return "anthropic:claude-sonnet-4-6";
  }
  return deskModel();
}

// A key without its provider package falls back to the scripted model instead of failing.
function isInstalled(pkg: string): boolean {
  try {
    createRequire(import.meta.url).resolve(pkg);
    return true;
  } catch {
    return false;
  }
}

/**
 * Connects to the ticket desk and builds the agent: the MCP tools go straight into
 * `createDeepAgent({ tools })` next to the built-in file tools. Close `mcp` when done.
 *
 * @example
 * const { agent, mcp } = await createTicketDeskAgent({ dbPath });
 * try { await agent.invoke({ messages: [{ role: "user", content: TICKET_DESK_TASK }] }) }
 * finally { await mcp.close() }
 */
export async function createTicketDeskAgent(options: {
  dbPath: string;
  model?: string | BaseChatModel;
  server?: McpServerConfig;
}) {
  const mcp: McpConnection = await connectMcp({
    ticket: options.server ?? ticketDeskStdio(options.dbPath),
  });
  const model = options.model ?? chooseModel();
  const agent = createDeepAgent({ model, tools: mcp.tools, systemPrompt: SYSTEM_PROMPT });
  return { agent, mcp, model };
}

/**
 * Runs the seed task end to end against the real server and returns the trace, the files,
 * the surface report and, for the scripted model, how many model calls were made.
 *
 * @example
 * const { files } = await runTicketDesk({ dbPath });
 * console.log(files["/brief.md"].content);
 */
export async function runTicketDesk(options: { dbPath: string; model?: string | BaseChatModel }) {
  const { agent, mcp, model } = await createTicketDeskAgent(options);
  try {
    const surface = await inspectSurface(agent);
    const result = await agent.invoke({ messages: [{ role: "user", content: TICKET_DESK_TASK }] });
    return {
      messages: result.messages as BaseMessage[],
      files: result.files as Record<string, { content: string }>,
      surface,
      model: typeof model === "string" ? model : "scripted",
      modelCalls: model instanceof ScriptedChatModel ? model.calls.length : undefined,
    };
  } finally {
    await mcp.close();
  }
}
