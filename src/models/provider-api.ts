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
    else if (current.bound && typeof current.bound === "object") current = current.bound;
    else if (typeof current._getModelInstance === "function")
      current = await current._getModelInstance();
    else break;
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
  const type = typeof real?._llmType === "function" ? real._llmType() : "";
  if (type === "anthropic") return { api: "anthropic", model: real };
  if (type === "openai" || type === "azure_openai") {
    const responses =
      typeof real._useResponsesApi === "function"
        ? Boolean(real._useResponsesApi({ tools }))
        : Boolean(real.useResponsesApi);
    return { api: responses ? "openai-responses" : "openai-chat-completions", model: real };
  }
  return { api: "other", model: real };
}
