import { BaseMessage } from "@langchain/core/messages";
import type { CachePolicy } from "@langchain/langgraph";
import { canonicalJson } from "../claims/canonical-json.js";
import { BUDGET_KEY } from "../limits/types.js";
import type { StackMiddleware, StackModel, StackTool } from "./langchain-types.js";

/** What tells two compiled agents apart in a shared cache. */
export interface CacheScope {
  model: StackModel;
  tools: readonly StackTool[];
  middleware: readonly StackMiddleware[];
  systemPrompt?: unknown;
  name?: string;
}

/**
 * The cache policy of an agent's model node. The key is the state the model call sees,
 * without what differs between two runs of the same conversation (message ids, provider
 * response metadata, file timestamps), scoped to the agent (model, prompt, tools,
 * middleware names), so agents sharing one cache never answer for each other.
 *
 * @example
 * cacheModelCalls(agent, new InMemoryCache(), modelCallCachePolicy({ model, tools, middleware }));
 */
export function modelCallCachePolicy(scope: CacheScope): CachePolicy {
  const prefix = canonicalJson([
    scope.name ?? "",
    modelIdentity(scope.model),
    promptText(scope.systemPrompt),
    scope.tools.map((t) => [t.name ?? "", (t as { description?: unknown }).description ?? ""]),
    scope.middleware.map((m) => m.name),
  ]);
  return { keyFunc: ([state]: unknown[]) => `${prefix}${stateKey(state)}` };
}

function modelIdentity(model: StackModel): string[] {
  const m = model as unknown as { spec?: { key?: string }; model?: unknown; modelName?: unknown };
  return [model.getName(), String(m.spec?.key ?? m.model ?? m.modelName ?? "")];
}

function promptText(prompt: unknown): unknown {
  return BaseMessage.isInstance(prompt) ? prompt.content : (prompt ?? "");
}

function stateKey(state: unknown): string {
  // The run's counts differ between two runs of the same conversation.
  const {
    messages,
    files,
    [BUDGET_KEY]: _budget,
    ...rest
  } = (state ?? {}) as Record<string, unknown>;
  return canonicalJson({
    ...rest,
    messages: Array.isArray(messages) ? messages.map(messageKey) : messages,
    files: files && typeof files === "object" ? filesKey(files as Record<string, unknown>) : files,
  });
}

function messageKey(message: unknown): unknown {
  if (!BaseMessage.isInstance(message)) {
    const { id: _id, ...rest } = (message ?? {}) as Record<string, unknown>;
    return rest;
  }
  const m = message as BaseMessage & { tool_calls?: unknown; tool_call_id?: unknown };
  return [m.type, m.content, m.name ?? null, m.tool_calls ?? null, m.tool_call_id ?? null];
}

function filesKey(files: Record<string, unknown>): unknown {
  return Object.fromEntries(
    Object.entries(files).map(([path, data]) => {
      if (!data || typeof data !== "object") return [path, data];
      const { createdAt: _c, modifiedAt: _m, ...rest } = data as Record<string, unknown>;
      return [path, rest];
    }),
  );
}
