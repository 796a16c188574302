import { createDeepAgent, filesystemMiddleware } from "delve";
import { getOrder, model } from "./fixtures.js";

// The model sees get_order, grep, ls, read_file, task: 5 tools.
export const agent = createDeepAgent({
  model,
  tools: [getOrder],
  middleware: [filesystemMiddleware({ tools: ["ls", "read_file", "grep"] })],
});
