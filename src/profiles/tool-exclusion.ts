import { ToolMessage } from "@langchain/core/messages";
import { createMiddleware } from "langchain";
import { setSurfacePlan } from "../surface/surface-plan.js";

/** The name of the layer that applies a harness profile's `excludedTools`. */
export const TOOL_EXCLUSION_MIDDLEWARE_NAME = "ToolExclusionMiddleware";

/**
 * Applies a harness profile's `excludedTools`: the tools stay registered, are removed from
 * every model request, and are refused with an error result if called anyway; the refusal
 * does not repeat the name, so an excluded tool leaves no trace in what the model reads.
 * Not a security boundary: permissions are.
 *
 * @example
 * toolExclusionMiddleware(new Map([["delete", "deepseek"]]))
 */
export function toolExclusionMiddleware(excludedBy: ReadonlyMap<string, string>) {
  const middleware = createMiddleware({
    name: TOOL_EXCLUSION_MIDDLEWARE_NAME,
    wrapModelCall: (request, handler) =>
      handler({ ...request, tools: request.tools.filter((t: any) => !excludedBy.has(t?.name)) }),
    wrapToolCall: async (request, handler) => {
      const call = request.toolCall;
      if (!excludedBy.has(call.name)) return handler(request);
      return new ToolMessage({
        content:
          "Error: that tool is not available to you. Continue with the tools you were given.",
        tool_call_id: call.id ?? "",
        name: call.name,
        status: "error",
      });
    },
  });
  setSurfacePlan(middleware, {
    hidden: new Map(
      [...excludedBy].map(([tool, key]) => [tool, `excluded by harness profile "${key}"`]),
    ),
  });
  return middleware;
}
