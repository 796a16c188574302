import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Where model calls made outside the agent's own model node report their token usage (the
 * summarizer's, a subagent's): the innermost scope a usage-recording middleware opened
 * around a model call or a `task` call. Without such a middleware there is no scope and
 * reports are dropped, so layers can report unconditionally.
 */

/** One model call's usage, as a scope collects it. */
export interface ScopedUsage {
  /** "provider:model" as the provider reported it. */
  model: string;
  /** "main", the subagent's name, or "summarizer". */
  agent: string;
  /** Every prompt token, cache reads and writes included. */
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/** A scope: the records reported inside it, and the subagent it runs (for a `task` call). */
export interface UsageScope {
  records: ScopedUsage[];
  agent?: string;
}

const storage = new AsyncLocalStorage<UsageScope>();

/** Runs `fn` with `scope` as the innermost usage scope. */
export function withUsageScope<T>(scope: UsageScope, fn: () => T): T {
  return storage.run(scope, fn);
}

/** The innermost usage scope, if a usage-recording middleware opened one. */
export function currentUsageScope(): UsageScope | undefined {
  return storage.getStore();
}

/**
 * The usage of one model reply (`usage_metadata`, LangChain's convention: `input_tokens`
 * includes cache reads and writes), with its model as "provider:model" when the reply or
 * `fallbackModel` names it; undefined when the reply carries no usage.
 */
export function usageOfReply(
  reply: unknown,
  agent: string,
  fallbackModel?: string,
): ScopedUsage | undefined {
  const message = reply as {
    usage_metadata?: {
      input_tokens?: number;
      output_tokens?: number;
      input_token_details?: { cache_read?: number; cache_creation?: number };
    };
    response_metadata?: Record<string, unknown>;
  };
  const usage = message?.usage_metadata;
  if (!usage || typeof usage !== "object") return undefined;
  const meta = message.response_metadata ?? {};
  const provider = typeof meta.model_provider === "string" ? meta.model_provider : undefined;
  const name = [meta.model_name, meta.model].find(
    (v): v is string => typeof v === "string" && v !== "",
  );
  const model = name && provider ? `${provider}:${name}` : (fallbackModel ?? name ?? "unknown");
  const count = (n: unknown) =>
    typeof n === "number" && Number.isFinite(n) && n > 0 ? Math.round(n) : 0;
  const record: ScopedUsage = {
    model,
    agent,
    input: count(usage.input_tokens),
    output: count(usage.output_tokens),
  };
  const cacheRead = count(usage.input_token_details?.cache_read);
  const cacheWrite = count(usage.input_token_details?.cache_creation);
  if (cacheRead) record.cacheRead = cacheRead;
  if (cacheWrite) record.cacheWrite = cacheWrite;
  return record;
}

/** Reports a model reply's usage to the innermost scope; a no-op without one. */
export function reportModelUsage(reply: unknown, agent: string, fallbackModel?: string): void {
  const scope = storage.getStore();
  if (!scope) return;
  const record = usageOfReply(reply, agent, fallbackModel);
  if (record) scope.records.push(record);
}
