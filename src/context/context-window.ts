import { boundModel } from "../langchain-seam/chat-models.js";
/**
 * The input window assumed when neither the model's profile nor a `contextWindow` option
 * gives one, for the summarization `createDeepAgent` adds by default (an explicitly
 * configured summarization refuses to guess). 128k is the smallest window of current
 * mainstream tool-calling models, so the guess errs towards summarising early.
 */
export const DEFAULT_CONTEXT_WINDOW = 128_000;

/**
 * The input window (tokens) a chat model declares in its LangChain profile
 * (`model.profile.maxInputTokens`), looking through `withConfig` bindings; undefined when
 * it declares none. Synchronous: a model given as a `"provider:model"` string is not
 * resolved here (see `contextWindowAtCall`).
 *
 * @example
 * profileContextWindow(new ChatAnthropic({ model: "claude-sonnet-4-6" })) // 200000
 */
export function profileContextWindow(model: unknown): number | undefined {
  let current: any = model;
  for (let depth = 0; depth < 5 && current; depth++) {
    const window = windowOfProfile(current);
    if (window !== undefined) return window;
    current = boundModel(current); // RunnableBinding from withConfig / bindTools.
  }
  return undefined;
}

/**
 * The input window of the model making a call. A lazily resolved model (Delve's
 * `LazyChatModel`, built from a `"provider:model"` string) is resolved first, as the call
 * itself is about to do; a model whose provider cannot load reports undefined and lets the
 * call fail with the real error.
 */
export async function contextWindowAtCall(model: unknown): Promise<number | undefined> {
  const direct = profileContextWindow(model);
  if (direct !== undefined) return direct;
  const lazy = model as { resolve?: () => Promise<unknown> } | null;
  if (typeof lazy?.resolve !== "function") return undefined;
  try {
    return profileContextWindow(await lazy.resolve());
  } catch {
    return undefined;
  }
}

/** True when the model resolves lazily, so its profile is only known at the first call. */
export function resolvesLazily(model: unknown): boolean {
  return typeof (model as { resolve?: unknown } | null)?.resolve === "function";
}

function windowOfProfile(model: any): number | undefined {
  let profile: any;
  try {
    profile = model?.profile;
  } catch {
    return undefined; // Some profile getters throw for unknown models.
  }
  const value = profile?.maxInputTokens;
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : undefined;
}
