import { ToolMessage } from "@langchain/core/messages";
import { Command, isCommand, ReducedValue, StateSchema } from "@langchain/langgraph";
import { createMiddleware } from "langchain";
import { z } from "zod";
import { hookState, withAgentLevelState } from "../agent/hook-state.js";
import type { StackTool } from "../agent/langchain-types.js";
import { argumentProblems, withoutNullOptionals } from "../agent/tool-args.js";
import { setSurfacePlan } from "../surface/surface-plan.js";
import { DEFERRAL_MIDDLEWARE_NAME, LOADED_TOOLS_KEY, SEARCH_TOOLS_NAME } from "./names.js";
import { createSearchToolsTool, definitionLine, loadingResult } from "./search-tools-tool.js";
import { toolIndex } from "./tool-index.js";
import { searchEntryOf } from "./tool-search.js";

const loadedSchema = z.array(z.string());

// Loaded names only grow: a union, in first-loaded order.
const union = (current: string[] | undefined, next: string[] | undefined) => {
  const out = [...(current ?? [])];
  for (const name of next ?? []) if (!out.includes(name)) out.push(name);
  return out;
};

/** Why a deferred tool is registered but not sent, as the surface inspector says it. */
export const DEFERRED_REASON = `deferred: loaded by ${SEARCH_TOOLS_NAME}`;

/**
 * Deferred tools: the tools named in `deferred` stay registered (they can run) but are left
 * out of each model request until `search_tools` (which this middleware adds, its
 * description holding a compact index of them) has loaded them in this thread; the loaded
 * set lives in state (`delveLoadedTools`), so it survives a restart and a subagent starts
 * with its parent's. A call to a deferred tool that is not loaded yet runs and loads it when
 * its arguments are valid; otherwise its result is the tool's definition and what to fix.
 * `createDeepAgent({ deferTools })` builds it; pass that option rather than this middleware.
 *
 * @example
 * createDeepAgent({ model, tools: [...mcp.tools], deferTools: true });
 */
export function toolDeferralMiddleware(options: {
  tools: readonly StackTool[];
  deferred: ReadonlySet<string>;
}) {
  const entries = options.tools
    .filter((t) => typeof t?.name === "string" && options.deferred.has(t.name as string))
    .map(searchEntryOf);
  const byName = new Map(entries.map((e) => [e.name, e]));
  const isDeferred = (t: unknown) => {
    const name = (t as { name?: unknown } | null)?.name;
    return typeof name === "string" && byName.has(name);
  };
  const middleware = withAgentLevelState(
    createMiddleware({
      name: DEFERRAL_MIDDLEWARE_NAME,
      stateSchema: new StateSchema({
        [LOADED_TOOLS_KEY]: new ReducedValue(
          loadedSchema.default(() => []),
          {
            inputSchema: loadedSchema.optional(),
            reducer: union,
          },
        ),
      }),
      tools: [createSearchToolsTool(entries)],
      wrapModelCall: (request, handler) => {
        const loaded = hookState(request)[LOADED_TOOLS_KEY] as string[] | undefined;
        const shown = request.tools.filter(
          (t) => !isDeferred(t) || loaded?.includes((t as { name: string }).name),
        );
        return shown.length === request.tools.length
          ? handler(request)
          : handler({ ...request, tools: shown });
      },
      wrapToolCall: async (request, handler) => {
        const call = request.toolCall;
        const entry = byName.get(call.name);
        const loaded = hookState(request)[LOADED_TOOLS_KEY];
        if (!entry || (Array.isArray(loaded) && loaded.includes(call.name)))
          return handler(request);
        const problems = argumentProblems(
          entry.tool,
          withoutNullOptionals(entry.tool, call.args ?? {}),
        );
        if (problems.length) {
          const text = `Error: ${call.name} was not loaded yet, and these arguments do not fit it: ${problems.join("; ")}. It is loaded now; its definition:\n${definitionLine(entry)}\nFix the arguments and call it again.`;
          return loadingResult(
            new ToolMessage({
              content: text,
              tool_call_id: call.id ?? "",
              name: call.name,
              status: "error",
            }),
            [call.name],
          );
        }
        return withLoaded(await handler(request), call.name);
      },
    }),
  );
  setSurfacePlan(middleware, {
    hidden: new Map(entries.map((e) => [e.name, DEFERRED_REASON])),
    deferred: { tools: entries.map((e) => e.tool), index: toolIndex(entries) },
  });
  return middleware;
}

// A tool's own result, plus the record that its tool is now loaded.
function withLoaded(result: ToolMessage | Command, name: string): ToolMessage | Command {
  if (ToolMessage.isInstance(result)) return loadingResult(result, [name]);
  if (!isCommand(result)) return result;
  const update = result.update;
  // A list-shaped update cannot take one more key: the load is recorded on the next call.
  if (!update || Array.isArray(update)) return result;
  const own = (update as Record<string, unknown>)[LOADED_TOOLS_KEY];
  return new Command({
    update: { ...update, [LOADED_TOOLS_KEY]: union(own as string[] | undefined, [name]) },
    goto: result.goto as any,
    graph: result.graph,
    resume: result.resume,
  });
}
