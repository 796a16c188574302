// TEMPORARY STUB: the real module comes from branch h-run-rules (same interface). The stub
// reads usage from the messages in state; the real one keeps its own state channel.
import { createMiddleware } from "langchain";

/** One model call's token usage. */
export interface UsageRecord {
  model: string;
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
  agent: string;
}
/** Records usage per model call in state (stub: inert). */
export function usageMiddleware() {
  return createMiddleware({ name: "UsageMiddleware" });
}
/** The usage records of a thread's state. */
export function readUsage(state: any): UsageRecord[] {
  const out: UsageRecord[] = [];
  for (const m of state?.messages ?? []) {
    const u = m?.usage_metadata;
    if (m?.getType?.() !== "ai" || !u) continue;
    out.push({
      model: String(m.response_metadata?.model_name ?? m.response_metadata?.model ?? ""),
      input: u.input_tokens ?? 0,
      output: u.output_tokens ?? 0,
      agent: "main",
    });
  }
  return out;
}
