import { type StructuredToolInterface, tool } from "@langchain/core/tools";

/**
 * A lean JSON schema: what the model is handed, so no `$schema` or `additionalProperties`
 * noise. Keep to what OpenAI's strict mode can express (no `default`, `allOf`, `not`, ...):
 * with strict tool calling on, the request layer sends it closed, with optional arguments
 * as null unions, and `null` arguments are read as "not given".
 */
export interface ToolJsonSchema {
  type: "object";
  properties: Record<string, Record<string, unknown>>;
  required: string[];
}

/**
 * Builds a built-in tool from its model-facing parts. The JSON schema is what the model
 * sees and what arguments are validated against; `run` gets the validated arguments and
 * LangChain's tool config (holding the tool call id and the run's config).
 */
export function defineTool<Args>(spec: {
  name: string;
  description: string;
  schema: ToolJsonSchema;
  run: (args: Args, config: unknown) => Promise<unknown>;
}): StructuredToolInterface {
  return tool(async (args: unknown, config: unknown) => spec.run(args as Args, config), {
    name: spec.name,
    description: spec.description,
    schema: spec.schema as any,
    verboseParsingErrors: true,
  } as any) as unknown as StructuredToolInterface;
}
