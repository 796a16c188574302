import { type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { imageTypeOfBase64, PORTABLE_IMAGE_TYPES, parseDataUrl } from "./image-bytes.js";
import type { ProviderApi } from "./provider-api.js";

// Tool results carry images (read_file, MCP) as content blocks; each API takes them its own
// way. Anthropic accepts images inside a tool_result; OpenAI (Chat Completions and Responses)
// accepts them only in user messages, so the tool result keeps a short text and the images
// follow in one user message after the batch of tool results.

/** One media block of a message, whatever shape it came in. */
interface Media {
  kind: "image" | "audio" | "video" | "file";
  mimeType: string;
  data?: string;
  url?: string;
}

/** What the model can take, from its profile. */
export interface MediaAbilities {
  images: boolean;
}

const KINDS = ["image", "audio", "video", "file"];

// The shapes LangChain, MCP adapters and providers use for media blocks.
function mediaOf(block: any): Media | undefined {
  if (typeof block !== "object" || block === null) return undefined;
  if (block.type === "image_url") {
    const url = typeof block.image_url === "string" ? block.image_url : block.image_url?.url;
    if (typeof url !== "string") return undefined;
    const parsed = parseDataUrl(url);
    return parsed ? { kind: "image", ...parsed } : { kind: "image", mimeType: "image/*", url };
  }
  if (!KINDS.includes(block.type)) return undefined;
  const kind = block.type as Media["kind"];
  if (block.source && typeof block.source === "object") {
    const s = block.source;
    if (s.type === "base64") return { kind, mimeType: s.media_type ?? "", data: s.data };
    if (s.type === "url") return { kind, mimeType: s.media_type ?? "", url: s.url };
    return undefined;
  }
  const mimeType = block.mimeType ?? block.mime_type ?? "";
  if (typeof block.data === "string" && (block.source_type ?? "base64") === "base64") {
    return { kind, mimeType, data: block.data };
  }
  const url = block.url ?? (block.source_type === "url" ? block.data : undefined);
  if (typeof url === "string") return { kind, mimeType, url };
  return undefined;
}

/** The media type providers will check the bytes against: read from the bytes when it can be. */
function trueType(media: Media): string {
  if (media.kind === "image" && media.data) return imageTypeOfBase64(media.data) ?? media.mimeType;
  return media.mimeType;
}

const size = (media: Media) => {
  if (!media.data) return "";
  const bytes = Math.floor((media.data.length * 3) / 4);
  return bytes < 1024 ? `, ${bytes} B` : `, ${(bytes / 1024).toFixed(1)} KB`;
};

const notice = (media: Media, why: string) =>
  `[${media.kind} ${trueType(media)}${size(media)} not shown: ${why}]`;

const isImage = (m: Media) =>
  m.kind === "image" &&
  (m.url !== undefined || (PORTABLE_IMAGE_TYPES as readonly string[]).includes(trueType(m)));

/** The block every LangChain provider class converts to its own image part. */
function imageBlock(media: Media): Record<string, unknown> {
  if (media.url) return { type: "image_url", image_url: { url: media.url } };
  return { type: "image_url", image_url: { url: `data:${trueType(media)};base64,${media.data}` } };
}

const textOf = (block: any): string | undefined =>
  typeof block === "string" ? block : block?.type === "text" ? block.text : undefined;

function withContent(message: ToolMessage, content: any): ToolMessage {
  return new ToolMessage({
    content,
    tool_call_id: message.tool_call_id,
    name: message.name,
    status: message.status,
    id: message.id,
    artifact: message.artifact,
  });
}

// Anthropic: images stay inside the tool result, typed from their bytes; PDFs become documents.
function forAnthropic(message: ToolMessage, abilities: MediaAbilities): ToolMessage {
  if (!Array.isArray(message.content)) return message;
  let changed = false;
  const blocks = message.content.map((block: any) => {
    const media = mediaOf(block);
    if (!media) return block;
    changed = true;
    if (isImage(media) && abilities.images) {
      return media.url
        ? { type: "image", url: media.url }
        : { type: "image", mimeType: trueType(media), data: media.data };
    }
    if (media.kind === "file" && media.mimeType === "application/pdf" && media.data) {
      return { type: "file", mimeType: "application/pdf", data: media.data };
    }
    const why =
      abilities.images || media.kind !== "image"
        ? "this API takes no such attachment"
        : "this model takes no image input";
    return { type: "text", text: notice(media, why) };
  });
  return changed ? withContent(message, blocks) : message;
}

// OpenAI: text in the tool result, images collected for the user message that follows.
function forOpenAi(
  message: ToolMessage,
  abilities: MediaAbilities,
  images: Array<Record<string, unknown>>,
): ToolMessage {
  if (!Array.isArray(message.content)) return message;
  const lines: string[] = [];
  const mine: Array<Record<string, unknown>> = [];
  for (const block of message.content as any[]) {
    const text = textOf(block);
    if (text !== undefined) {
      lines.push(text);
      continue;
    }
    const media = mediaOf(block);
    if (!media) {
      // Any other block (a text resource, JSON) as text: these APIs take only text here.
      lines.push(typeof block?.text === "string" ? block.text : JSON.stringify(block));
      continue;
    }
    if (isImage(media) && abilities.images) {
      mine.push(imageBlock(media));
      lines.push(`[${trueType(media)} image${size(media)}: attached in the next message]`);
    } else {
      const why =
        media.kind === "image" ? "this model takes no image input" : "this API takes only images";
      lines.push(notice(media, why));
    }
  }
  if (mine.length) {
    const what = mine.length === 1 ? "The image" : `The ${mine.length} images`;
    const who = `${message.name ?? "tool"} result ${message.tool_call_id}`;
    images.push({ type: "text", text: `${what} of the ${who}:` }, ...mine);
  }
  return withContent(message, lines.join("\n"));
}

// A user's own message with LangChain's standard media blocks: OpenAI's classes send those
// raw (Chat Completions refuses them, Responses drops them), so they become image_url parts.
function userForOpenAi(message: HumanMessage, abilities: MediaAbilities): HumanMessage {
  if (!Array.isArray(message.content)) return message;
  let changed = false;
  const blocks = message.content.map((block: any) => {
    if (block?.type === "image_url") return block;
    const media = mediaOf(block);
    if (!media) return block;
    changed = true;
    if (isImage(media) && abilities.images) return imageBlock(media);
    return { type: "text", text: notice(media, "this API takes only images here") };
  });
  if (!changed) return message;
  return new HumanMessage({ content: blocks as any, id: message.id, name: message.name });
}

/**
 * The messages of one request in the form `api` accepts, with media from tool results
 * moved or described as that API needs. Messages that need no change are returned as they
 * are; changed ones are new objects, so the saved thread is never altered.
 *
 * @example
 * messagesForProvider(request.messages, "openai-chat-completions", { images: true })
 */
export function messagesForProvider(
  messages: readonly BaseMessage[],
  api: ProviderApi,
  abilities: MediaAbilities,
): BaseMessage[] {
  if (api === "other") {
    if (abilities.images) return [...messages];
    return messages.map((m) => (ToolMessage.isInstance(m) ? forAnthropic(m, abilities) : m));
  }
  if (api === "anthropic") {
    return messages.map((m) => (ToolMessage.isInstance(m) ? forAnthropic(m, abilities) : m));
  }
  const out: BaseMessage[] = [];
  let pending: Array<Record<string, unknown>> = [];
  const flush = () => {
    if (pending.length) out.push(new HumanMessage({ content: pending as any }));
    pending = [];
  };
  for (const message of messages) {
    if (ToolMessage.isInstance(message)) {
      out.push(forOpenAi(message, abilities, pending));
      continue;
    }
    flush();
    out.push(HumanMessage.isInstance(message) ? userForOpenAi(message, abilities) : message);
  }
  flush();
  return out;
}
