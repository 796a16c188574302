// Names the deferral feature shares with the subagents and the surface inspector: a leaf, so
// importing a name never loads the middleware.

/** The tool that finds and loads deferred tools. */
export const SEARCH_TOOLS_NAME = "search_tools";

/** The name the deferral middleware registers under. */
export const DEFERRAL_MIDDLEWARE_NAME = "ToolDeferralMiddleware";

/** The state key holding the names of the deferred tools loaded in this thread. */
export const LOADED_TOOLS_KEY = "delveLoadedTools";

/**
 * The deferred tools loaded in a thread, in the order they were loaded: read from an
 * `invoke` result or `(await agent.getState(config)).values`. Empty when none was loaded.
 *
 * @example
 * loadedTools(await agent.invoke(input, config)) // ["crm_get_account"]
 */
export function loadedTools(state: object | null | undefined): string[] {
  const value = (state as Record<string, unknown> | null | undefined)?.[LOADED_TOOLS_KEY];
  return Array.isArray(value) ? value.filter((n): n is string => typeof n === "string") : [];
}
