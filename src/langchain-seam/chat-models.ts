// Relies on: langchain's `initChatModel` returns a ConfigurableModel whose
// `_getModelInstance()` builds the concrete class; a `withConfig`/`bindTools` result is a
// RunnableBinding wrapping its model in `bound`; a chat model names its provider with
// `_llmType()` ("openai", "azure_openai", "anthropic"); ChatOpenAI decides per call whether
// it speaks the Responses API with `_useResponsesApi({ tools })` (older builds: the
// `useResponsesApi` field). The underscore members are not public API.
// Checked against: langchain 1.5.14, @langchain/core 1.4.0, @langchain/openai 1.5.8,
// @langchain/anthropic 1.5.11.

/** The concrete model a ConfigurableModel (from `initChatModel`) builds, or undefined. */
export async function configuredModelInstance(model: unknown): Promise<unknown> {
  const universal = model as { _getModelInstance?: () => Promise<unknown> } | null;
  return typeof universal?._getModelInstance === "function"
    ? await universal._getModelInstance()
    : undefined;
}

/** One step inward: the model a RunnableBinding wraps, or what a ConfigurableModel builds. */
export async function unwrapModelOnce(model: unknown): Promise<unknown> {
  const bound = boundModel(model);
  if (bound !== undefined) return bound;
  return configuredModelInstance(model);
}

/** The model a RunnableBinding (`withConfig`, `bindTools`) wraps, or undefined. */
export function boundModel(model: unknown): unknown {
  const bound = (model as { bound?: unknown } | null)?.bound;
  return bound && typeof bound === "object" ? bound : undefined;
}

/** The provider type a chat model reports (`_llmType()`), or "". */
export function llmTypeOf(model: unknown): string {
  const m = model as { _llmType?: () => string } | null;
  return typeof m?._llmType === "function" ? String(m._llmType()) : "";
}

/** Whether a ChatOpenAI sends a request with these tools to the Responses API. */
export function usesOpenAiResponses(model: unknown, tools: unknown[]): boolean {
  const m = model as {
    _useResponsesApi?: (options: { tools: unknown[] }) => boolean;
    useResponsesApi?: boolean;
  };
  return typeof m._useResponsesApi === "function"
    ? Boolean(m._useResponsesApi({ tools }))
    : Boolean(m.useResponsesApi);
}
