// Providers check an image's bytes against the type it is labelled with (Anthropic answers
// 400 "Image does not match the provided media type"), so the type is read from the bytes.

/** The image types every provider with image input accepts. */
export const PORTABLE_IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;

const startsWith = (bytes: Uint8Array, prefix: number[], at = 0) =>
  prefix.every((b, i) => bytes[at + i] === b);

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/**
 * The image type of some bytes by their magic number (PNG, JPEG, GIF, WebP), or undefined
 * when they are none of these.
 *
 * @example
 * imageTypeOfBytes(pngBytes) // "image/png"
 */
export function imageTypeOfBytes(bytes: Uint8Array): string | undefined {
  if (startsWith(bytes, [137, 80, 78, 71, 13, 10, 26, 10])) return "image/png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "image/gif";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "image/webp";
  return undefined;
}

/** The same for base64 text (only its first bytes are decoded). */
export function imageTypeOfBase64(data: string): string | undefined {
  return imageTypeOfBytes(Buffer.from(data.slice(0, 32), "base64"));
}

/** The media type and base64 data of a `data:<type>;base64,<data>` URL, or undefined. */
export function parseDataUrl(url: unknown): { mimeType: string; data: string } | undefined {
  const parsed = typeof url === "string" ? /^data:([^;,]+);base64,(.*)$/s.exec(url) : null;
  return parsed ? { mimeType: parsed[1]!, data: parsed[2]! } : undefined;
}
