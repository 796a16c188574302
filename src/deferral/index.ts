// The deferral folder's boundary: deferred tools and `search_tools`. Every name here is public
// API, re-exported by the package root.

export { AUTO_DEFER_SHARE, type DeferToolsOption } from "./defer-option.js";
export { LOADED_TOOLS_KEY, loadedTools, SEARCH_TOOLS_NAME } from "./names.js";
