import { isDeepStrictEqual } from "node:util";
import { imageTypeOfBase64, parseDataUrl } from "../models/image-bytes.js";

/**
 * What the model gets from a successful MCP call: the result's blocks (see
 * `normalizeMcpContent`), text first, then the result's `structuredContent` once, as one
 * JSON text block, only when no text block already holds that same JSON (servers usually
 * send the data both ways). A lone text block comes back as a plain string. The structured
 * data also stays in the tool message's artifact (`{ type: "mcp_structured_content", data }`).
 *
 * @example
 * mcpResultContent({ type: "text", text: "3 open" }, [{ type: "mcp_structured_content", data: { open: 3 } }])
 * // [{ type: "text", text: "3 open" }, { type: "text", text: '{"open":3}' }]
 */
export function mcpResultContent(content: unknown, artifact: unknown): unknown {
  // The adapter hands a lone text block with structured data as one object, not a list.
  const single = typeof content === "object" && content !== null && !Array.isArray(content);
  const normalized = normalizeMcpContent(single ? [content] : content);
  const blocks: any[] =
    typeof normalized === "string" ? [{ type: "text", text: normalized }] : (normalized as any[]);
  const structured = structuredContentOf(artifact);
  const adds =
    structured !== undefined &&
    !blocks.some((b) => b?.type === "text" && holds(b.text, structured));
  const out = adds ? [...blocks, { type: "text", text: JSON.stringify(structured) }] : blocks;
  return out.length === 1 && out[0]?.type === "text" ? out[0].text : out;
}

function structuredContentOf(artifact: unknown): unknown {
  if (!Array.isArray(artifact)) return undefined;
  return artifact.find((a) => a?.type === "mcp_structured_content")?.data;
}

// Whether a text block is the structured data written as JSON (any spacing or key order).
function holds(text: unknown, data: unknown): boolean {
  if (typeof text !== "string") return false;
  try {
    return isDeepStrictEqual(JSON.parse(text), data);
  } catch {
    return false;
  }
}

/**
 * MCP result content in the one block shape Delve's own tools use (`read_file` attachments):
 * `{ type: "text", text }`, `{ type: "image" | "audio" | "file", mimeType, data }`. The
 * adapter's older shapes (`source_type`, `mime_type`) are converted once here: provider
 * classes read them inconsistently (ChatAnthropic sent each block twice, the image as JPEG).
 * An image's type is read from its bytes when they say otherwise; a text resource becomes a
 * text block; a resource link becomes a line of text naming it.
 *
 * @example
 * normalizeMcpContent([{ type: "image", source_type: "base64", mime_type: "image/jpeg", data: png }])
 * // [{ type: "image", mimeType: "image/png", data: png }]
 */
export function normalizeMcpContent(content: unknown): unknown {
  if (!Array.isArray(content)) return content;
  return content.flatMap((block) => normalizeBlock(block));
}

function normalizeBlock(block: any): unknown[] {
  if (typeof block === "string") return [{ type: "text", text: block }];
  if (typeof block !== "object" || block === null) return [];
  if (typeof block.text === "string" && (block.type === "text" || block.type === "file")) {
    return [{ type: "text", text: block.text }];
  }
  if (block.type === "image_url") {
    const url = typeof block.image_url === "string" ? block.image_url : block.image_url?.url;
    const parsed = parseDataUrl(url);
    return [parsed ? image(parsed.data, parsed.mimeType) : { type: "image", url }];
  }
  const mimeType = block.mimeType ?? block.mime_type;
  const base64 = typeof block.data === "string" && (block.source_type ?? "base64") === "base64";
  if (["image", "audio", "video", "file"].includes(block.type) && base64) {
    if (block.type === "image") return [image(block.data, mimeType)];
    return [{ type: block.type, mimeType, data: block.data }];
  }
  const url = block.url ?? (block.source_type === "url" ? block.data : undefined);
  if (typeof url === "string") return [{ type: "text", text: `[resource ${url}]` }];
  return [block];
}

function image(data: string, labelled: string | undefined) {
  return { type: "image", mimeType: imageTypeOfBase64(data) ?? labelled ?? "image/png", data };
}
