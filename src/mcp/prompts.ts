import { AIMessage, type BaseMessage, HumanMessage } from "@langchain/core/messages";
import type { McpServerLink } from "./server-link.js";

/** A prompt template a server offers; `get` fills it in as LangChain messages. */
export interface McpPrompt {
  /** The server's key in `connectMcp`'s map. */
  server: string;
  name: string;
  title?: string;
  description?: string;
  arguments: Array<{ name: string; description?: string; required?: boolean }>;
  /** Asks the server for the prompt with these arguments. */
  get(args?: Record<string, string>): Promise<BaseMessage[]>;
}

/**
 * Lists a server's prompts, following pagination. A server that does not declare the
 * prompts capability has none, rather than an error.
 *
 * @example
 * const [daily] = await listPrompts(link);
 * const messages = await daily.get({ status: "unassigned" });
 */
export async function listPrompts(link: McpServerLink): Promise<McpPrompt[]> {
  const session = await link.session();
  if (!session.client.getServerCapabilities()?.prompts) return [];
  const found: McpPrompt[] = [];
  let cursor: string | undefined;
  do {
    const page = await session.client.listPrompts(cursor ? { cursor } : undefined);
    for (const p of page.prompts) {
      found.push({
        server: link.server.name,
        name: p.name,
        ...(p.title ? { title: p.title } : {}),
        ...(p.description ? { description: p.description } : {}),
        arguments: (p.arguments ?? []).map((a) => ({
          name: a.name,
          ...(a.description ? { description: a.description } : {}),
          ...(a.required !== undefined ? { required: a.required } : {}),
        })),
        get: async (args) => {
          const { client } = await link.session();
          const result = await client.getPrompt({ name: p.name, arguments: args });
          return result.messages.map((m: any) => {
            const content = promptContent(m.content);
            return m.role === "assistant"
              ? new AIMessage({ content })
              : new HumanMessage({ content });
          });
        },
      });
    }
    cursor = page.nextCursor;
  } while (cursor);
  return found;
}

// MCP prompt messages hold one content block; text becomes a plain string.
function promptContent(block: any): any {
  if (block?.type === "text") return block.text;
  if (block?.type === "image") {
    return [{ type: "image", source_type: "base64", data: block.data, mime_type: block.mimeType }];
  }
  if (block?.type === "resource" && typeof block.resource?.text === "string")
    return block.resource.text;
  return [block];
}
