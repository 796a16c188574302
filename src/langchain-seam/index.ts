// delve's seam with langchain / LangGraph internals: every use of a private structure lives
// in a file of this folder, with a test in test/langchain-seam/. Nothing here is public API.
export {
  isMiddlewareNode,
  leanMiddlewareWrites,
  withoutUnchanged,
} from "./middleware-node-writes.js";
