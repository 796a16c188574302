import { llmTypeOf, unwrapModelOnce, usesOpenAiResponses } from "../langchain-seam/chat-models.js";
import { LazyChatModel } from "./lazy-chat-model.js";

/** The wire API a chat model speaks, as far as what a request may hold differs. */
export type ProviderApi = "openai-chat-completions" | "openai-responses" | "anthropic" | "other";

/** A model and the API it will use for one request. */
export interface ResolvedProvider {
  api: ProviderApi;
  /** The concrete model (a `LazyChatModel` or a binding resolved to what it wraps). */
  model: any;
}

async function concrete(model: any): Promise<any> {
  let current = model;
  for (let depth = 0; depth < 5 && current; depth++) {
    if (current instanceof LazyChatModel) current = await current.resolve();
    else {
      const inner = await unwrapModelOnce(current);
      if (inner === undefined) break;
      current = inner;
    }
  }
  return current;
}

/**
 * Which API a request to `model` goes to. ChatOpenAI picks per call (Responses when
 * `useResponsesApi` is set, for built-in tools, or for models that prefer it), so the
 * request's tools are part of the answer. Resolves a `LazyChatModel` first.
 *
 * @example
 * await providerApiOf(new ChatOpenAI({ model: "gpt-5.5", useResponsesApi: true }), [])
 * // { api: "openai-responses", model }
 */
export async function providerApiOf(model: unknown, tools: unknown[]): Promise<ResolvedProvider> {
  const real = await concrete(model);
  const type = llmTypeOf(real);
  if (type === "anthropic") return { api: "anthropic", model: real };
  if (type === "openai" || type === "azure_openai") {
    const responses = usesOpenAiResponses(real, tools);
    return { api: responses ? "openai-responses" : "openai-chat-completions", model: real };
  }
  return { api: "other", model: real };
}
