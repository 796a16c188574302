// Every place Delve reads a private structure of langchain, @langchain/* or LangGraph; none
// of these names is public API.
export { adapterResultContent } from "./mcp-adapter-result.js";
