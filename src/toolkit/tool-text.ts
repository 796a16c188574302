/**
 * The plain text of a tool message, whatever shape its content has: a string as it is,
 * content blocks joined line by line (text blocks, and the text of embedded text resources
 * such as MCP `resource` results). Images, audio and binary resources carry no text and are
 * skipped. MCP tools answer with content blocks, so code that reads their results should
 * use this rather than `String(message.content)`, which gives `[object Object]`.
 *
 * @example
 * const ticket = JSON.parse(toolText(result.messages.at(-1)));
 */
export function toolText(message: { content?: unknown } | string | null | undefined): string {
  if (message === null || message === undefined) return "";
  const content = typeof message === "string" ? message : message.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map(blockText)
    .filter((text): text is string => text !== undefined)
    .join("\n");
}

function blockText(block: unknown): string | undefined {
  if (typeof block === "string") return block;
  if (typeof block !== "object" || block === null) return undefined;
  const b = block as Record<string, any>;
  if (b.type === "text" && typeof b.text === "string") return b.text;
  // LangChain's data blocks for MCP text resources: { type: "file", source_type: "text", text }.
  if (b.type === "file" && typeof b.text === "string") return b.text;
  // A raw MCP embedded resource: { type: "resource", resource: { uri, text } }.
  if (b.type === "resource" && typeof b.resource?.text === "string") return b.resource.text;
  return undefined;
}
