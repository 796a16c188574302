// What examples/langgraph-postgres/ and examples/two-servers/ take from LangGraph's server
// packages. They live in serve/node_modules (they want TypeScript 5; the repo uses 7), so the
// examples import them through this file. LangGraph itself and LangChain resolve from the
// repo's node_modules, one copy for the server and the graph.

export { serve } from "@hono/node-server";
export {
  createEmbedServer,
  type ThreadSaver,
} from "@langchain/langgraph-api/experimental/embed";
export { Hono, type MiddlewareHandler } from "hono";
export { HTTPException } from "hono/http-exception";
