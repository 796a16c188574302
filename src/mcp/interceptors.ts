/** One MCP tool call as interceptors see it. */
export interface McpCall {
  /** The server's key in `connectMcp`'s map. */
  server: string;
  /** The tool's name on the server. */
  tool: string;
  /** The name the model called (with the server's prefix). */
  name: string;
  args: Record<string, unknown>;
  /** Extra HTTP headers for this call only (HTTP servers; an error on stdio servers). */
  headers?: Record<string, string>;
}

/** What the model will receive for a call: its content and whether it is an error. */
export interface McpCallResult {
  /** A string, or content blocks (text, image, file). */
  content: string | Array<Record<string, unknown>>;
  status: "success" | "error";
}

/**
 * Runs around each tool call of a server. `before` may return a changed call (arguments,
 * headers) and may throw to refuse it (the model gets an error result); `after` sees every
 * result, errors included, and may return a replacement. With several interceptors the first
 * is outermost: its `before` runs first and its `after` last.
 *
 * @example
 * const audit: McpInterceptor = {
 *   after: (call, result) => void log.push(`${call.name} -> ${result.status}`),
 * };
 * const auth: McpInterceptor = {
 *   before: async (call) => ({ ...call, headers: { Authorization: `Bearer ${await token()}` } }),
 * };
 */
export interface McpInterceptor {
  before?(call: McpCall): McpCall | undefined | Promise<McpCall | undefined>;
  after?(
    call: McpCall,
    result: McpCallResult,
  ): McpCallResult | undefined | Promise<McpCallResult | undefined>;
}

/** Applies the `before` hooks in order; each sees the previous one's call. */
export async function runBefore(interceptors: McpInterceptor[], call: McpCall): Promise<McpCall> {
  let current = call;
  for (const interceptor of interceptors) {
    current = (await interceptor.before?.(current)) ?? current;
  }
  return current;
}

/** Applies the `after` hooks innermost first; each sees the previous one's result. */
export async function runAfter(
  interceptors: McpInterceptor[],
  call: McpCall,
  result: McpCallResult,
): Promise<McpCallResult> {
  let current = result;
  for (const interceptor of [...interceptors].reverse()) {
    current = (await interceptor.after?.(call, current)) ?? current;
  }
  return current;
}
