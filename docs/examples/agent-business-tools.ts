import { BUILTIN_TOOL_NAMES, createDeepAgent } from "delve";
import { getOrder, model } from "./fixtures.js";

// Only your tools: the file tools and `task` are hidden, refused, and named nowhere.
export const agent = createDeepAgent({
  model,
  tools: [getOrder],
  profile: { excludedTools: [...BUILTIN_TOOL_NAMES] },
});
