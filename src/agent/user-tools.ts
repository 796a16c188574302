import { tool } from "@langchain/core/tools";
import { ConfigurationError } from "../errors/configuration-error.js";
import type { StackTool } from "./langchain-types.js";

/**
 * A tool given as plain data: a name, a description, a zod or JSON schema for its
 * arguments, and the function that runs it (TypeScript has no docstrings to read).
 *
 * @example
 * const getTicket: ToolDefinition = {
 *   name: "get_ticket",
 *   description: "Look up one ticket by id (T-1001).",
 *   schema: z.object({ ticket_id: z.string() }),
 *   func: async ({ ticket_id }) => db.ticket(ticket_id),
 * };
 */
export interface ToolDefinition<Args = any> {
  name: string;
  description: string;
  schema: unknown;
  func: (args: Args, runtime: any) => unknown | Promise<unknown>;
}

/** A provider-native tool passed to the model untouched, e.g. `{ type: "web_search" }`. */
export type ProviderToolDict = Record<string, unknown>;

/** Anything `createDeepAgent({ tools })` accepts, mixable in one list. */
export type AgentTool =
  | ToolDefinition
  | ProviderToolDict
  | { name: string; invoke: (...args: any[]) => unknown };

/** A user tool after normalisation, with where it came from. */
export interface NormalizedTool {
  name: string;
  source: "user" | "provider";
  value: StackTool;
}

/** The name a provider tool dictionary is known by (it has no `name` of its own). */
export function providerToolName(dict: ProviderToolDict): string {
  if (typeof dict.name === "string") return dict.name;
  if (typeof dict.type === "string") return dict.type;
  return Object.keys(dict)[0] ?? "provider_tool";
}

const NAME_RULE = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Turns the three accepted forms into what `createAgent` takes: LangChain tools as they
 * are, plain definitions through LangChain's `tool()`, provider dictionaries untouched. A
 * malformed entry is a construction error naming its position in the list.
 */
export function normalizeTools(tools: readonly unknown[] | undefined): NormalizedTool[] {
  if (tools === undefined) return [];
  if (!Array.isArray(tools)) {
    throw new ConfigurationError("INVALID_TOOL", "tools must be an array.");
  }
  return tools.map((entry, index) => normalizeOne(entry, index));
}

function normalizeOne(entry: unknown, index: number): NormalizedTool {
  const where = `tools[${index}]`;
  const fail = (problem: string): never => {
    throw new ConfigurationError("INVALID_TOOL", `${where} ${problem}`, { index });
  };
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
    return fail(
      `is ${entry === null ? "null" : Array.isArray(entry) ? "an array" : typeof entry}; expected a LangChain tool, a { name, description, schema, func } definition, or a provider tool object.`,
    );
  }
  const value = entry as Record<string, any>;
  if (typeof value.invoke === "function") {
    if (typeof value.name !== "string" || !value.name) fail("is a runnable without a name.");
    if (!NAME_RULE.test(value.name)) {
      fail(
        `("${value.name}") has a name providers refuse: tool names are 1-64 letters, digits, _ or - (this one has ${value.name.length} characters). Rename the tool.`,
      );
    }
    return { name: value.name, source: "user", value };
  }
  const looksLikeDefinition = "func" in value || ("schema" in value && "name" in value);
  if (looksLikeDefinition) {
    if (typeof value.name !== "string" || !NAME_RULE.test(value.name)) {
      fail(`needs a name of 1-64 letters, digits, _ or - (got ${JSON.stringify(value.name)}).`);
    }
    if (typeof value.func !== "function")
      fail(`("${value.name}") needs func: the function to run.`);
    if (typeof value.description !== "string" || !value.description.trim()) {
      fail(
        `("${value.name}") needs a description: the model reads it to decide when to call the tool.`,
      );
    }
    if (typeof value.schema !== "object" || value.schema === null) {
      fail(`("${value.name}") needs schema: a zod object or a JSON schema of its arguments.`);
    }
    const built = tool(value.func, {
      name: value.name,
      description: value.description,
      schema: value.schema,
    } as any);
    return { name: value.name, source: "user", value: built };
  }
  if (Object.keys(value).length === 0) fail("is an empty object.");
  return { name: providerToolName(value), source: "provider", value };
}
