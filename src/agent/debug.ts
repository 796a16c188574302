import { createMiddleware } from "langchain";

/**
 * `debug: true`: logs each model call (message and tool counts) and each tool call (name,
 * arguments, outcome) to stderr, so a developer can follow a run without a tracer.
 */
export function debugMiddleware() {
  return createMiddleware({
    name: "DebugMiddleware",
    wrapModelCall: async (request, handler) => {
      console.error(
        `[delve] model call: ${request.messages.length} messages, ${request.tools.length} tools`,
      );
      return handler(request);
    },
    wrapToolCall: async (request, handler) => {
      const { name, args } = request.toolCall;
      console.error(`[delve] tool call: ${name} ${JSON.stringify(args).slice(0, 500)}`);
      const result: any = await handler(request);
      if (result?.status === "error") console.error(`[delve] tool error: ${name}`);
      return result;
    },
  });
}
