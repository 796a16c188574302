// Relies on: @langchain/mcp-adapters returning a result whose only content block is text,
// when the result also has `structuredContent` or `_meta`, as that one block object (text
// plus `structuredContent` / `meta` keys) instead of a string or a list, and on
// @langchain/core's tool then storing that object in the ToolMessage as its JSON string.
// Checked against: langchain 1.5.14, @langchain/core 1.4.0, @langchain/mcp-adapters 1.1.4.

/**
 * The content the adapter's MCP tool built, before LangChain turned it into a string: a
 * lone text block that carried `structuredContent` or `_meta` arrives as that block's JSON,
 * and comes back here as `{ type: "text", text }` (the structured data is in the artifact).
 * Any other content is returned as it is.
 *
 * @example
 * adapterResultContent('{"type":"text","text":"3 open","structuredContent":{"open":3}}', artifact)
 * // { type: "text", text: "3 open" }
 */
export function adapterResultContent(content: unknown, artifact: unknown): unknown {
  if (typeof content !== "string" || !carriesExtras(artifact)) return content;
  try {
    const block = JSON.parse(content);
    const wrapped =
      block?.type === "text" &&
      typeof block.text === "string" &&
      ("structuredContent" in block || "meta" in block);
    return wrapped ? { type: "text", text: block.text } : content;
  } catch {
    return content;
  }
}

const carriesExtras = (artifact: unknown) =>
  Array.isArray(artifact) &&
  artifact.some((a) => a?.type === "mcp_structured_content" || a?.type === "mcp_meta");
