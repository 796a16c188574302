import { ToolMessage } from "@langchain/core/messages";
import type { RunLimits } from "./types.js";

/** The timeout of one tool: its own `metadata.timeoutMs`, else `limits.toolTimeoutMs`. */
export function timeoutOf(
  tool: unknown,
  name: string | undefined,
  limits: RunLimits,
): number | undefined {
  const own = (tool as { metadata?: { timeoutMs?: unknown } } | undefined)?.metadata?.timeoutMs;
  if (typeof own === "number" && own > 0) return own;
  // `task` runs a whole subagent: the run's own budgets bound it, not a tool timeout.
  return name === "task" ? undefined : limits.toolTimeoutMs;
}

// The same tool, invoked with `signal` merged into its config, so the tool (an MCP request,
// a fetch, a process) is cancelled when its time is up, not left running.
function withSignal<T>(tool: T, signal: AbortSignal): T {
  const original = tool as { invoke?: (input: unknown, config?: any) => Promise<unknown> };
  if (typeof original?.invoke !== "function") return tool;
  const copy = Object.create(original);
  copy.invoke = function (input: unknown, config?: any) {
    const signals = [config?.signal, signal].filter(Boolean) as AbortSignal[];
    return original.invoke!.call(this, input, { ...config, signal: AbortSignal.any(signals) });
  };
  return copy;
}

interface TimedRequest {
  tool?: unknown;
  toolCall?: { id?: string; name?: string };
  runtime?: { signal?: AbortSignal };
}

/**
 * Runs one tool call under its timeout: when the time is up, the tool's signal is aborted
 * and the model gets an error result; a cancel of the whole run still throws.
 */
export async function runWithTimeout<R extends TimedRequest, T>(
  request: R,
  timeoutMs: number,
  handler: (request: R) => T | Promise<T>,
): Promise<T | ToolMessage> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<"expired">((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error(`tool timeout after ${timeoutMs} ms`));
      resolve("expired");
    }, timeoutMs);
  });
  const tool = request.tool && withSignal(request.tool, controller.signal);
  const running = (async () => handler({ ...request, ...(tool ? { tool } : {}) }))();
  try {
    const outcome = await Promise.race([running, expired]);
    if (outcome !== "expired") return outcome as T;
  } catch (error) {
    if (!controller.signal.aborted || request.runtime?.signal?.aborted) throw error;
  } finally {
    clearTimeout(timer);
  }
  running.catch(() => {}); // Its rejection after the abort is expected.
  const name = request.toolCall?.name ?? "";
  return new ToolMessage({
    content: `Error: ${name} did not finish within ${timeoutMs} ms and was cancelled. Retry with a smaller request, or do it another way.`,
    tool_call_id: request.toolCall?.id ?? "",
    name,
    status: "error",
  });
}
