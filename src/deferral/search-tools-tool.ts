import { ToolMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph";
import { defineTool } from "../filesystem/tools/define-tool.js";
import { toolCallIdOf } from "../filesystem/tools/tool-output.js";
import { LOADED_TOOLS_KEY, SEARCH_TOOLS_NAME } from "./names.js";
import { toolIndex } from "./tool-index.js";
import { type SearchEntry, searchTools } from "./tool-search.js";

/** How many tools one search loads unless the model asks for another number (at most 10). */
export const DEFAULT_SEARCH_LIMIT = 5;

/** The description of `search_tools`: what it does, then the index of deferred tools. */
export function searchToolsDescription(entries: readonly SearchEntry[]): string {
  return `Find and load tools that are not shown to you yet. Search by words (what you want to do) or by exact names from the list below; the full definitions of the best matches come back, and those tools are callable from your next turn on, for the rest of this conversation.\nTools you can load (${entries.length}):\n${toolIndex(entries)}`;
}

/** One loaded tool as the result shows it: its definition, as one JSON line. */
export function definitionLine(entry: SearchEntry): string {
  return JSON.stringify(entry.definition);
}

/** A result message that also records `names` as loaded for the rest of the thread. */
export function loadingResult(message: ToolMessage, names: readonly string[]): Command {
  return new Command({ update: { messages: [message], [LOADED_TOOLS_KEY]: [...names] } });
}

/** Builds `search_tools` over the deferred tools of one agent. */
export function createSearchToolsTool(entries: readonly SearchEntry[]) {
  return defineTool<{ query: string; limit?: number }>({
    name: SEARCH_TOOLS_NAME,
    description: searchToolsDescription(entries),
    schema: {
      type: "object",
      properties: {
        query: {
          type: "string",
          minLength: 1,
          description: "Words describing the task, or exact tool names separated by spaces.",
        },
        limit: {
          type: "integer",
          minimum: 1,
          maximum: 10,
          description: `How many tools to load (default ${DEFAULT_SEARCH_LIMIT}).`,
        },
      },
      required: ["query"],
    },
    run: async ({ query, limit }, config) => {
      const found = searchTools(query, entries, limit ?? DEFAULT_SEARCH_LIMIT);
      const callId = toolCallIdOf(config);
      if (found.length === 0) {
        return new ToolMessage({
          content: `No tool matches "${query.slice(0, 100)}". Try other words, or an exact name from the list in this tool's description.`,
          tool_call_id: callId,
          name: SEARCH_TOOLS_NAME,
        });
      }
      const names = found.map((e) => e.name);
      const text = `Loaded ${names.length} tool${names.length === 1 ? "" : "s"}, callable from your next turn on:\n${found.map(definitionLine).join("\n")}`;
      return loadingResult(
        new ToolMessage({ content: text, tool_call_id: callId, name: SEARCH_TOOLS_NAME }),
        names,
      );
    },
  });
}
