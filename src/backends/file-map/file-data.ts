import { mediaTypeOf } from "../protocol/media-types.js";
import type { FileData } from "../protocol/protocol.js";

/**
 * The `FileData` encoding of the map backends: text kept as UTF-8, anything else as base64,
 * and the size and bytes of either without a round trip through a string.
 */

/** Size in bytes of a file's content, without decoding base64. */
export function fileDataSize(data: FileData): number {
  if (data.encoding === "utf-8") return Buffer.byteLength(data.content);
  const length = data.content.length;
  const padding = data.content.endsWith("==") ? 2 : data.content.endsWith("=") ? 1 : 0;
  return Math.floor((length * 3) / 4) - padding;
}

/** The bytes of a file, whatever its encoding. */
export function fileDataBytes(data: FileData): Uint8Array {
  // Copy into a plain Uint8Array: a Buffer may sit on a shared pool and compares unlike one.
  return new Uint8Array(Buffer.from(data.content, data.encoding === "base64" ? "base64" : "utf8"));
}

// Decodes bytes only when they are exactly valid UTF-8 (BOM kept), so a round trip is lossless.
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Builds the `FileData` stored for `content` at `path`. Strings are kept as text; bytes are
 * kept as text too when they are valid UTF-8 without NUL and the path is not a media file, so
 * an uploaded `.md` can be grepped; anything else is kept as base64.
 */
export function createFileData(
  path: string,
  content: string | Uint8Array,
  now: string,
  previous?: FileData,
): FileData {
  const createdAt = previous?.createdAt ?? now;
  if (typeof content === "string") {
    return { content, encoding: "utf-8", createdAt, modifiedAt: now };
  }
  if (!mediaTypeOf(path) && !content.includes(0)) {
    try {
      return { content: strictUtf8.decode(content), encoding: "utf-8", createdAt, modifiedAt: now };
    } catch {
      // Not UTF-8: fall through to base64.
    }
  }
  const base64 = Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString(
    "base64",
  );
  return { content: base64, encoding: "base64", createdAt, modifiedAt: now };
}
