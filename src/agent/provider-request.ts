import { createMiddleware } from "langchain";
import { providerApiOf } from "../models/provider-api.js";
import { messagesForProvider } from "../models/provider-media.js";
import { strictToolSchema } from "../models/strict-schema.js";
import { argumentSchemaOf } from "./tool-args.js";

/** The name of the layer that fits each request to its provider's API. */
export const PROVIDER_REQUEST_MIDDLEWARE_NAME = "ProviderRequestMiddleware";

// A LangChain tool (not a provider dictionary): it has a name, a schema and runs.
const isClientTool = (tool: any) =>
  typeof tool?.name === "string" && typeof tool?.invoke === "function" && tool.schema;

/**
 * The innermost model-call layer: it fits one request to the API the model speaks, on a
 * copy, so the saved thread never changes. Media in tool results become what the API
 * accepts (see `messagesForProvider`), or a text notice for a model without image input.
 * On OpenAI, every tool's `strict` is sent as a boolean: `false` unless the model's
 * `supportsStrictToolCalling` or the request's `modelSettings.strict` turns it on, and then
 * the tool's schema goes out in strict-mode form (optional arguments as null unions; the
 * tool layer reads `null` as "not given"), or with `strict: false` when strict mode cannot
 * express it (see `strictToolSchema`); on Chat Completions, where ChatOpenAI sends one flag
 * for all tools, such a tool turns strict off for the whole request.
 */
export function providerRequestMiddleware() {
  return createMiddleware({
    name: PROVIDER_REQUEST_MIDDLEWARE_NAME,
    wrapModelCall: async (request, handler) => {
      const tools = [...(request.tools ?? [])];
      const { api, model } = await providerApiOf(request.model, tools);
      const images = imageInputsOf(model);
      const messages = messagesForProvider(request.messages, api, { images });
      if (api !== "openai-chat-completions" && api !== "openai-responses") {
        return handler({ ...request, messages });
      }
      const settings = (request.modelSettings ?? {}) as Record<string, unknown>;
      const strict = (settings.strict ?? model?.supportsStrictToolCalling) === true;
      const fitted = tools.map((tool) => openAiFunction(tool, api, strict));
      // Chat Completions gets one strict flag for every tool from ChatOpenAI: when one tool
      // cannot be strict, the request goes out non-strict rather than be refused.
      if (strict && api === "openai-chat-completions" && fitted.some((t) => t.strict === false)) {
        const loose = tools.map((tool) => openAiFunction(tool, api, false));
        const modelSettings = { ...settings, strict: false };
        return handler({
          ...request,
          messages,
          modelSettings,
          tools: loose.map((t) => t.tool) as any,
        });
      }
      return handler({ ...request, messages, tools: fitted.map((t) => t.tool) as any });
    },
  });
}

// A client tool as an OpenAI function definition with `strict` set (ChatOpenAI would send
// `null` on Responses, which OpenAI reads as strict); the tool node still runs the
// registered tool of that name. Tools with a provider definition of their own pass as they are.
function openAiFunction(
  tool: any,
  api: string,
  strict: boolean,
): { tool: unknown; strict?: boolean } {
  if (!isClientTool(tool) || tool.extras?.providerToolDefinition) return { tool };
  const schema = argumentSchemaOf(tool) ?? { type: "object", properties: {} };
  // A schema strict mode cannot express (a map of values) goes out as it is, non-strict.
  const strictForm = strict ? strictToolSchema(schema) : undefined;
  const sent = strictForm !== undefined;
  const fn = { name: tool.name, description: tool.description, parameters: strictForm ?? schema };
  // Chat Completions reads `function.strict`; Responses copies top-level keys over its own.
  const fitted =
    api === "openai-responses"
      ? { type: "function", function: fn, strict: sent }
      : { type: "function", function: { ...fn, strict: sent } };
  return { tool: fitted, strict: sent };
}

// Some profile getters throw for unknown models: then assume images are taken.
function imageInputsOf(model: any): boolean {
  try {
    return model?.profile?.imageInputs !== false;
  } catch {
    return true;
  }
}
